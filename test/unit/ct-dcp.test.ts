import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { isFirmName, splitPublishedName } from '../../src/ingest/sources/ct-dcp.js';
import { SHARED_SOURCES, hasShared, tempFile } from '../helpers/source-files.js';

// The rules the CT adapter adds to its layout: a broker's name tells a firm from a person, and a
// published "FIRST MIDDLE LAST SUFFIX" splits into its parts.

describe('Connecticut names', () => {
  it.skipIf(!hasShared)('when the sample\'s 128 broker names are classified then exactly its 23 people are persons (../shared; skipped without it)', () => {
    const rows = parse(fs.readFileSync(path.join(SHARED_SOURCES, 'CT/6tja-6vdt-sample.csv')), { columns: true }) as Record<string, string>[];
    const brokers = new Map(rows.filter((r) => r.broker_credential).map((r) => [r.broker_credential, r.real_estate_broker]));
    expect(brokers.size).toBe(128);
    expect([...brokers.values()].filter((name) => !isFirmName(name)).sort()).toEqual([
      'BRADLEY P SAMMIS', 'CHARLES A LIBERTI', 'DANIELE A AMELIA', 'DAVID A CAPPUCCI', 'DAVID L BAIN', 'DENISE M PEPE-BALISCIANO',
      'GEORGE W AGNELLI JR', 'GLENN R MARR', 'JAMILA CACERES RANNO', 'JILL A BRENNAN', 'LUTHER E THURLOW', 'MARGARET C JAY',
      'MARY ROSE WHITE', 'MICHAEL CALISE', 'NICOLE S MERCURIANO', 'PAUL R GALLAGHER', 'RAYMOND A MOTT', 'RICHARD W SANTASIERE II',
      'ROBERT P MOLTA', 'ROBERTA G CARDINAL', 'ROBERTA K PECK', 'STEPHEN P TAGLIATELA', 'THEODORE J HADDAD JR',
    ]);
  });

  it('when a broker name holds an entity ending, a trade word, an ampersand or a digit then it is a firm, else a person', () => {
    for (const firm of ['H.D. RANDALL, REALTORS, INC', 'GEENTY INC', 'BISHOP EDWARD & ROBERTS LLC', 'CENTURY 21 BAY-MAR REALTY INC', 'CT REFERRAL GROUP', 'RIVERSIDE REALTY GROUP LTD (THE)', 'Keller Williams Realty', 'ACME L.L.C.']) {
      expect(isFirmName(firm), firm).toBe(true);
    }
    for (const person of ['MARY ROSE WHITE', 'RICHARD W SANTASIERE II', "PATRICK O'CONNELL", 'DENISE M PEPE-BALISCIANO', 'Muhammad Bilal']) {
      expect(isFirmName(person), person).toBe(false);
    }
  });

  it('when a published name is split then the first word is the first name, the last the last name, a generational suffix stays apart', () => {
    expect(splitPublishedName('CAMILLE A ADDARIO')).toEqual({ first: 'CAMILLE', middle: 'A', last: 'ADDARIO', suffix: '' });
    expect(splitPublishedName('RENE N BARBEAU JR')).toEqual({ first: 'RENE', middle: 'N', last: 'BARBEAU', suffix: 'JR' });
    expect(splitPublishedName('MARY TOW K LIM')).toEqual({ first: 'MARY', middle: 'TOW K', last: 'LIM', suffix: '' });
    expect(splitPublishedName('Muhammad  Bilal')).toEqual({ first: 'Muhammad', middle: '', last: 'Bilal', suffix: '' });
    // Two words are a first and a last name, even when the second reads as a suffix.
    expect(splitPublishedName('JOHN V')).toEqual({ first: 'JOHN', middle: '', last: 'V', suffix: '' });
    expect(splitPublishedName('CHER')).toEqual({ first: '', middle: '', last: 'CHER', suffix: '' });
  });
});

describe('Connecticut format detection', () => {
  it('when a file starts with the dataset header, quoted or not, then ct-dcp-supervision is chosen', () => {
    for (const header of [
      '"real_estate_salesperson","salespersoncredential","real_estate_broker","broker_credential"',
      '\uFEFFreal_estate_salesperson,salespersoncredential,real_estate_broker,broker_credential',
    ]) {
      expect(resolveFormat(tempFile('ct.csv', `${header}\n"A B","RES.0000001",,\n`)).format).toBe('ct-dcp-supervision');
    }
    expect(() => resolveFormat(tempFile('other.csv', '"salesperson","credential"\n'))).toThrow(/cannot tell the format/);
  });
});
