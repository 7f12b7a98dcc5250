import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { noAccountYet } from '../../src/start-up.js';

// What a person sees on the first start of their own deployment (issue 55, the first minutes).
describe('the first start', () => {
  it('when a number setting is not one then the refusal is a sentence naming the value and the range', () => {
    for (const [PORT, shown] of [['abc', '"abc"'], ['99999', '"99999"'], ['80.5', '"80.5"'], ['-1', '"-1"']]) {
      expect(() => loadConfig({ PORT })).toThrow(ConfigError);
      expect(() => loadConfig({ PORT })).toThrow(`PORT=${shown}: must be a whole number from 0 to 65,535`);
    }
    expect(() => loadConfig({ PORT: 'abc' })).not.toThrow(/NaN/);
    expect(loadConfig({ PORT: '8080' }).PORT).toBe(8080);
  });

  it('when a production start finds no account then it says so and how to make the first; with one it says nothing', async () => {
    const said: string[] = [];
    const logger = { warn: (msg: string) => void said.push(msg) };
    await noAccountYet({ countAccounts: async () => 0 }, logger);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/no account yet.*npm run -s admin -- accounts create --email .* --plan/);
    await noAccountYet({ countAccounts: async () => 1 }, logger);
    expect(said).toHaveLength(1);
  });
});
