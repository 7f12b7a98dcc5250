#!/usr/bin/env node
// Package bin: runs the TypeScript operator command line through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./admin.ts');
