import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import type { Signer } from './signer.js';

const Jwk = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string(),
    kid: z.string().openapi({ description: 'The key\'s RFC 7638 thumbprint (SHA-256), as receipts name it in their header' }),
    alg: z.literal('EdDSA'),
    use: z.literal('sig'),
    revoked: z
      .object({ revoked_at: z.number().int().openapi({ description: 'When it was marked compromised (seconds since the epoch)' }), reason: z.literal('keyCompromise') })
      .optional()
      .openapi({ description: 'Present once the key is marked compromised (as OpenID Federation 1.0 writes it): do not trust a receipt it signed; ask for the receipt again' }),
  })
  .openapi('ReceiptKey');
export const Jwks = z.object({ keys: z.array(Jwk) }).openapi('ReceiptKeys');

/** How long a JWKS may be cached: a rotated key signs only once the store names it; old keys stay listed. */
const JWKS_MAX_AGE_S = 300;

/** The public keys that verify receipts, with no key needed. */
export function receiptsRoutes(ctx: RouteContext, signer: Signer) {
  route(ctx, {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'getReceiptKeys',
    public: true,
    summary: 'The public keys that verify receipts (JWKS)',
    description:
      'Every Ed25519 key that ever signed a receipt, the active one and those rotated away from, so that any receipt verifies for as long as it is kept. ' +
      'A key marked compromised carries `revoked`. Served without a key and cacheable for five minutes.',
    tags: ['Verifications'],
    response: Jwks,
    responseHeaders: { 'Cache-Control': `public, max-age=${JWKS_MAX_AGE_S}` },
    handler: async (_input, _req, res) => {
      res.set('Cache-Control', `public, max-age=${JWKS_MAX_AGE_S}`);
      return signer.jwks();
    },
  });
}
