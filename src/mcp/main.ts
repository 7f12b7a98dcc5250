// `npm run mcp`: the MCP server over stdio (a desktop assistant starts it), or with `--http` over
// streamable HTTP on a port of its own (docs/mcp.md).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LvsClient } from '../../clients/typescript/src/index.js';
import { loadMcpConfig } from './config.js';
import { listenMcp, mcpHttpApp } from './http.js';
import { mcpServer } from './tools.js';

const config = loadMcpConfig();
if (process.argv.includes('--http')) {
  const server = await listenMcp(mcpHttpApp(config), config.MCP_HTTP_PORT, config.MCP_HTTP_HOST);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.MCP_HTTP_PORT;
  // stderr: stdout is left to the protocol, as over stdio.
  console.error(`MCP server on http://${config.MCP_HTTP_HOST}:${port}/mcp for ${config.LVS_API_URL}`);
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} else {
  const client = new LvsClient({ baseUrl: config.LVS_API_URL, apiKey: config.LVS_API_KEY });
  await mcpServer(client, config.MCP_PAGE_CAP).connect(new StdioServerTransport());
  console.error(`MCP server on stdio for ${config.LVS_API_URL}${config.LVS_API_KEY ? '' : ' (no LVS_API_KEY: calls will be refused)'}`);
}
