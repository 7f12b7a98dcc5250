import type { z } from 'zod';
import type { ValidationIssue } from '../errors.js';

type Where = 'query' | 'path' | 'body';

/** FastAPI-style error types, so clients can branch on `type` rather than on the message. */
function issueType(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined ? 'missing' : `${issue.expected}_type`;
    case 'too_small':
      return issue.origin === 'number' ? 'greater_than_equal' : issue.origin === 'string' ? 'string_too_short' : 'too_short';
    case 'too_big':
      return issue.origin === 'number' ? 'less_than_equal' : issue.origin === 'string' ? 'string_too_long' : 'too_long';
    case 'invalid_value':
      return 'enum';
    case 'invalid_format':
      return issue.format === 'regex' ? 'string_pattern_mismatch' : `${issue.format}_parsing`;
    case 'invalid_union':
      return 'union_error';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    case 'custom':
      // A check of ours names its FastAPI type in params.type.
      return typeof issue.params?.type === 'string' ? issue.params.type : 'value_error';
    default:
      return 'value_error';
  }
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

export function toValidationIssues(where: Where, error: z.ZodError, input: unknown): ValidationIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const value = valueAt(input, path);
    const type = issueType(issue, value);
    const out: ValidationIssue = {
      loc: [where, ...path],
      msg: type === 'missing' ? 'Field required' : issue.message,
      type,
    };
    if (value !== undefined) out.input = value;
    if (issue.code === 'invalid_value') out.ctx = { expected: issue.values.map(String).join(', ') };
    if (issue.code === 'custom' && typeof issue.params?.expected === 'string') out.ctx = { expected: issue.params.expected };
    if (issue.code === 'too_small') out.ctx = { min: Number(issue.minimum) };
    if (issue.code === 'too_big') out.ctx = { max: Number(issue.maximum) };
    return out;
  });
}
