import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every schema module imports z from here so `.openapi()` is available before any schema is built.
extendZodWithOpenApi(z);
export { z };
