import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { listen } from '../../src/http/server.js';
import { loadMcpConfig } from '../../src/mcp/config.js';
import { listenMcp, mcpHttpApp } from '../../src/mcp/http.js';
import { fixture, useApp } from '../helpers/graph.js';
import { baseEnv, ROOT, TSX } from '../helpers/processes.js';

const TOOLS = ['change_feed', 'hierarchy_on_date', 'list_affiliates', 'list_supervisors', 'search_licensees', 'unwatch_licence', 'verify_batch', 'verify_licence', 'watch_licence'];
type ToolAnswer = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
const text = (r: ToolAnswer) => r.content.map((c) => c.text).join('\n');

describe('the MCP server (npm run mcp) on the typed client', () => {
  const t = useApp(fixture('small'));
  let api: Server;
  let mcp: Server;
  let apiUrl: string;
  let mcpUrl: string;
  let stdio: Client;
  const httpClients: Client[] = [];
  const overHttp = async (key: string) => {
    const client = new Client({ name: 'lvs-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    httpClients.push(client);
    return client;
  };
  const fromApi = async (path: string) => {
    const res = await request(apiUrl).get(path).set('Authorization', `Bearer ${t.key}`);
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  };

  beforeAll(async () => {
    api = await listen(t.app as never, { port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    mcp = await listenMcp(mcpHttpApp(loadMcpConfig({ LVS_API_URL: apiUrl })), 0, '127.0.0.1');
    mcpUrl = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
    stdio = new Client({ name: 'lvs-test', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({ command: process.execPath, args: [...TSX, 'src/mcp/main.ts'], cwd: ROOT, env: { ...(baseEnv() as Record<string, string>), LVS_API_URL: apiUrl, LVS_API_KEY: t.key }, stderr: 'pipe' }),
    );
  });
  afterAll(async () => {
    await stdio?.close();
    for (const c of httpClients) await c.close();
    await new Promise<void>((resolve) => mcp?.close(() => resolve()));
    await new Promise<void>((resolve) => api?.close(() => resolve()));
  });

  it('when a client lists the tools over stdio then each has its input schema and annotations', async () => {
    const { tools } = await stdio.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const verify = tools.find((tool) => tool.name === 'verify_licence')!;
    expect(verify.inputSchema).toMatchObject({ type: 'object', required: ['state', 'license_number'], properties: { state: { type: 'string', description: expect.stringMatching(/jurisdiction/) }, license_number: { type: 'string', maxLength: 128 } } });
    expect(verify.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'unwatch_licence')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(tools.find((tool) => tool.name === 'search_licensees')!.inputSchema.properties).toMatchObject({ per_page: { maximum: 25 }, status: { enum: expect.arrayContaining(['active']) } });
  });

  it('when verify is called over stdio then its structured content is what the API answers for the same input, and its text says the verdict', async () => {
    const result = (await stdio.callTool({ name: 'verify_licence', arguments: { state: 'tx', license_number: '763827-sa', name: 'Jose Munoz' } })) as ToolAnswer;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await fromApi('/api/v1/licensees/verify?state=TX&license_number=763827-SA&name=Jose%20Munoz'));
    expect(text(result)).toMatch(/^TX 763827-SA: (clear|consider)/);
  });

  it('when the hierarchy on a date is asked over HTTP then each level is the relationships the API says were in force that day', async () => {
    const client = await overHttp(t.key);
    const result = (await client.callTool({ name: 'hierarchy_on_date', arguments: { state: 'TX', license_number: '763827-SA', date: '2024-01-01' } })) as ToolAnswer;
    expect(result.isError).toBeFalsy();
    const inForce = async (number: string) => ((await fromApi(`/api/v1/licensees/TX/${number}/affiliations?as_of=2024-01-01`)).data as { status: string }[]).filter((a) => a.status === 'active');
    const levels = result.structuredContent!.levels as { depth: number; supervises: string; supervisors: unknown[] }[];
    expect(levels).toEqual([
      { depth: 1, supervises: '763827-SA', supervisors: await inForce('763827-SA') },
      { depth: 2, supervises: '100001-B', supervisors: await inForce('100001-B') },
    ]);
    expect(text(result)).toContain('763827-SA <- 100001-B');
  });

  it('when the change feed is read over HTTP then it answers what the API answers, with the cursor to go on from', async () => {
    const runId = randomUUID();
    const at = new Date().toISOString();
    await t.side.changes.log.stage({ id: runId, source: 'tx-trec', state: 'TX', snapshot_date: at.slice(0, 10) }, [
      { type: 'status_changed', state: 'TX', license_number: '763827-SA', license_credential_id: credentialId('TX', '763827-SA'), old: { status: 'Active' }, new: { status: 'Inactive' }, relationship: null, snapshot_date: at.slice(0, 10), detected_at: at, source: 'tx-trec' },
    ]);
    await t.side.changes.log.commit(runId);
    const client = await overHttp(t.key);
    const result = (await client.callTool({ name: 'change_feed', arguments: { since: '2020-01-01', limit: 5 } })) as ToolAnswer;
    const feed = await fromApi('/api/v1/licensees/changes?since=2020-01-01&limit=5');
    expect(result.structuredContent).toEqual(feed);
    expect((feed.data as unknown[]).length).toBeGreaterThan(0);
    expect(text(result)).toContain(`next_cursor: ${feed.next_cursor}`);
  });

  it('when the input is bad, the key wrong or the plan short then the answer is a tool error in the API\'s words and the server goes on', async () => {
    const bad = (await stdio.callTool({ name: 'verify_licence', arguments: { state: 'ZZ', license_number: '1' } })) as ToolAnswer;
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/jurisdiction/);

    const wrong = (await (await overHttp('lvs_wrong_key')).callTool({ name: 'verify_licence', arguments: { state: 'TX', license_number: '763827-SA' } })) as ToolAnswer;
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toMatch(/^the API key was refused: GET \/api\/v1\/licensees\/verify answered 401/);
    expect(text(wrong)).not.toContain('lvs_wrong_key');

    const free = (await t.side.accounts.createAccount({ email: 'mcp-free@example.com', plan: 'free' })).key.key;
    const batch = (await (await overHttp(free)).callTool({ name: 'verify_batch', arguments: { licenses: [{ state: 'TX', license_number: '763827-SA' }] } })) as ToolAnswer;
    expect(batch.isError).toBe(true);
    expect(text(batch)).toMatch(/402/);

    const still = (await stdio.callTool({ name: 'list_supervisors', arguments: { state: 'TX', license_number: '763827-SA' } })) as ToolAnswer;
    expect(still.isError).toBeFalsy();
    expect(text(still)).toContain('100001-B');
  });

  it('when a request comes from a foreign Origin or Host, or without a key, then the HTTP transport refuses it', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (headers: Record<string, string>) =>
      fetch(mcpUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${t.key}`, ...headers }, body: JSON.stringify(init) });
    expect((await post({})).status).toBe(200);
    const foreign = await post({ Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.stringify(await foreign.json())).toContain('https://evil.example');
    const port = new URL(mcpUrl).port;
    expect((await request(`http://127.0.0.1:${port}`).post('/mcp').set('Host', `rebound.example:${port}`).send(init)).status).toBe(403);
    const anonymous = await fetch(mcpUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
  });
});
