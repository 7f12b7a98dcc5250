import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const list = z
  .string()
  .default('')
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

/** The MCP server's settings, from its environment (docs/mcp.md). */
const McpConfigSchema = z.object({
  LVS_API_URL: z.url().default('http://localhost:8000'),
  /** Over stdio, the key every call uses; over HTTP each caller brings its own as a bearer token. */
  LVS_API_KEY: z.string().min(1).optional(),
  MCP_HTTP_HOST: z.string().default('127.0.0.1'),
  MCP_HTTP_PORT: port.default(8100),
  /** Host names (with their port, if any) the HTTP transport answers to, beyond the loopback names. */
  MCP_ALLOWED_HOSTS: list,
  /** Origins a browser may call the HTTP transport from; any other Origin is refused. */
  MCP_ALLOWED_ORIGINS: list,
  /** The most rows a tool answers with at once: an assistant reads every one. */
  MCP_PAGE_CAP: z.coerce.number().int().min(1).max(100).default(25),
});
export type McpConfig = z.infer<typeof McpConfigSchema>;

export function loadMcpConfig(env: NodeJS.ProcessEnv = process.env): McpConfig {
  const parsed = McpConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`MCP server settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
