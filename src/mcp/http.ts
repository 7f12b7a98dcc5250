// The MCP server over streamable HTTP, stateless: each POST carries its caller's API key as a
// bearer token and gets a server of its own, so no state is kept between requests.
import type { Server } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Express, NextFunction, Request, Response } from 'express';
import { LvsClient } from '../../clients/typescript/src/index.js';
import type { McpConfig } from './config.js';
import { mcpServer } from './tools.js';

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

function jsonRpcError(res: Response, status: number, message: string, headers: Record<string, string> = {}) {
  res.status(status).set(headers).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

export function mcpHttpApp(config: McpConfig): Express {
  const loopback = LOOPBACK.includes(config.MCP_HTTP_HOST);
  // Host names checked against DNS rebinding: the loopback names when bound there, and those set.
  const allowedHosts = [...(loopback ? LOOPBACK.map((h) => (h === '::1' ? '[::1]' : h)) : []), ...config.MCP_ALLOWED_HOSTS];
  const app = createMcpExpressApp({ host: config.MCP_HTTP_HOST, allowedHosts });
  app.disable('x-powered-by');
  // A browser page of another origin must not reach a local server: only the origins set may.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    if (origin === undefined || config.MCP_ALLOWED_ORIGINS.includes(origin)) return next();
    jsonRpcError(res, 403, `Origin ${origin} is not allowed (MCP_ALLOWED_ORIGINS)`);
  });
  app.post('/mcp', async (req, res) => {
    const key = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    if (!key) return jsonRpcError(res, 401, 'send your Licensee Verification Service API key as Authorization: Bearer <key>', { 'WWW-Authenticate': 'Bearer' });
    const server = mcpServer(new LvsClient({ baseUrl: config.LVS_API_URL, apiKey: key }), config.MCP_PAGE_CAP);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      if (!res.headersSent) jsonRpcError(res, 500, `internal error: ${(err as Error).message}`);
    }
  });
  // Stateless: no stream to open with GET and no session to end with DELETE.
  app.all('/mcp', (_req, res) => jsonRpcError(res, 405, 'this server is stateless: POST JSON-RPC messages to /mcp', { Allow: 'POST' }));
  return app;
}

export function listenMcp(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(server)));
  });
}
