import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { inject } from 'vitest';

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** JSON pointer to a place in the document, as a URI fragment. */
const pointer = (...segments: string[]) => `#/${segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`;

function load() {
  const doc = inject('openapi') as unknown as Document;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; strict mode would refuse OpenAPI's own keywords (example).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    params: (template.match(/\{/g) ?? []).length,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const validators = new Map<string, ValidateFunction>();

  return {
    doc,
    /** Why a body does not fit its operation's response in the document, or undefined when it does. */
    checkResponse(method: string, url: string, status: number, body: unknown): string | undefined {
      const path = new URL(url, 'http://x').pathname;
      const m = method.toLowerCase();
      // The literal path wins over a templated one (/licensees/verify over /licensees/{state}/...).
      const match = templates
        .filter((t) => t.regex.test(path) && doc.paths[t.template][m])
        .sort((a, b) => a.params - b.params)[0];
      if (!match) return undefined; // no such operation: a 404 or 405 of the router
      const response = doc.paths[match.template][m].responses[String(status)];
      if (!response) return `${method} ${match.template} answered ${status}, which its responses do not list`;
      if (!response.content?.['application/json']?.schema) return `${method} ${match.template} ${status} has no JSON schema`;
      const ref = `openapi.json${pointer('paths', match.template, m, 'responses', String(status), 'content', 'application/json', 'schema')}`;
      let validate = validators.get(ref);
      if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
      return validate(body) ? undefined : `${method} ${match.template} ${status}: ${ajv.errorsText(validate.errors)}`;
    },
  };
}

let served: ReturnType<typeof load> | undefined;
export function servedDocument() {
  return (served ??= load());
}
