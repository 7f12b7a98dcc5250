import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { promtool } from '../helpers/promtool.js';

const DIR = fileURLToPath(new URL('../../deploy/prometheus/', import.meta.url));
const run = promtool();

describe.skipIf(!run)('deploy/prometheus under promtool', () => {
  it('when the alert rules are checked then they load, and the scrape configuration with them', () => {
    const rules = run!(['check', 'rules', `${DIR}alerts.yml`]);
    expect(rules.output).toMatch(/SUCCESS: 7 rules found/);
    expect(rules.status, rules.output).toBe(0);
    const config = run!(['check', 'config', `${DIR}prometheus.yml`]);
    expect(config.status, config.output).toBe(0);
  });

  it('when the rules meet series of a failing service and of a healthy one then each alert fires, with its text, only on the failing one', () => {
    const res = run!(['test', 'rules', `${DIR}alerts.test.yml`]);
    expect(res.status, res.output).toBe(0);
    expect(res.output).toMatch(/SUCCESS/);
  });
});
