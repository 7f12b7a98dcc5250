import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HARD_NEGATIVE_KINDS, PAIRS_FILE, readPairs, resolvePairs, score } from '../../bench/names/pairs.js';
import { NAME_MATCH_RESULTS, matchName, type NameQuery, type RecordNames } from '../../src/domain/name-match.js';
import { SHARED_SOURCES, hasShared } from '../helpers/source-files.js';

const person = (first: string, middle: string | null, last: string, full?: string): RecordNames => ({
  full_name: full ?? [first, middle, last].filter(Boolean).join(' '), first_name: first, middle_name: middle, last_name: last,
});
const JOHN = person('JOHN', 'ANDREW', 'SMITH');
const result = (q: NameQuery | string, r: RecordNames) => matchName(typeof q === 'string' ? { name: q } : q, r)?.result;

describe('matchName on persons (made-up names)', () => {
  it('when the names differ only in case, accents, punctuation, spacing, order, titles or suffixes then they are exact, scored 1', () => {
    for (const q of ['John Andrew Smith', 'SMITH, JOHN ANDREW', 'smith john andrew', '  Jóhn   Andrew  Smíth ', 'Dr. John Andrew Smith', 'John Andrew Smith, Jr.', 'Smith III, John Andrew', 'John "Jack" Andrew Smith']) {
      expect(matchName({ name: q }, JOHN), q).toEqual({ result: 'exact', score: 1, compared_with: { field: 'full_name', value: 'JOHN ANDREW SMITH' } });
    }
    expect(result({ first_name: 'john andrew', last_name: 'smith jr' }, JOHN)).toBe('exact');
    expect(result('SMITH, JOHN A', person('JOHN', 'A.', 'SMITH'))).toBe('exact');
    expect(result('John A. Smith', person('JOHN', 'A', 'SMITH'))).toBe('exact');
    expect(result("Sean O'Brien", person('SEAN', null, 'O BRIEN'))).toBe('exact');
    expect(result('Sean O Brien', person('SEAN', null, "O'BRIEN"))).toBe('exact');
    expect(result('Richard Graham', person('RICHARD', null, 'GRAHAM II'))).toBe('exact');
  });

  it('when the query has an initial, a nickname, no middle name or one part of a compound surname then it is close', () => {
    expect(result('J. Andrew Smith', JOHN)).toBe('close');
    expect(result('J Smith', JOHN)).toBe('close');
    expect(result('John A Smith', JOHN)).toBe('close');
    expect(result('John Smith', JOHN)).toBe('close');
    expect(result('John Andrew Smith', person('JOHN', 'A', 'SMITH'))).toBe('close');
    expect(result('Bob Smith', person('ROBERT', 'LEE', 'SMITH'))).toBe('close');
    expect(result('Liz Brown', person('ELIZABETH', null, 'BROWN'))).toBe('close');
    expect(result({ first_name: 'Robert', last_name: 'Smith' }, person('BOBBY', null, 'SMITH'))).toBe('close');
    expect(result('Maria Garcia', person('MARIA', null, 'GARCIA-LOPEZ'))).toBe('close');
    expect(result('Maria Lopez', person('MARIA', null, 'GARCIA LOPEZ'))).toBe('close');
    expect(result('Maria Garcia Lopez', person('MARIA', null, 'GARCIA-LOPEZ'))).toBe('exact');
    expect(result('Maria Garcialopez', person('MARIA', null, 'GARCIA-LOPEZ'))).toBe('exact');
    expect(result('Mark Delacruz', person('MARK', null, 'DE LA CRUZ'))).toBe('exact');
    expect(result('Mark Cruz', person('MARK', null, 'DE LA CRUZ'))).toBe('close');
    expect(result('Mark De', person('MARK', null, 'DE LA CRUZ'))).toBe('mismatch');
  });

  it('when a long name has one or two typing slips then it is close; in a short name, or a spelling that is no slip, it is a mismatch', () => {
    const chris = person('CHRISTOPHER', null, 'JOHNSON');
    expect(result('Christopher Johsnon', chris)).toBe('close'); // swapped letters
    expect(result('Christopher Johnsonn', chris)).toBe('close'); // a doubled letter
    expect(result('Christopher Jphnson', chris)).toBe('close'); // the key next to O
    expect(result('Christopher Jonson', chris)).toBe('close'); // a missing letter
    expect(result('Chirstopher Jonhson', chris)).toBe('close'); // two slips in 18 letters
    expect(result('Chirstopher Jonhsno', chris)).toBe('mismatch'); // three
    expect(result('Christopher Jahnson', chris)).toBe('mismatch'); // A is nowhere near O
    expect(result('Christopher Johnsen', person('CHRISTOPHER', null, 'JOHNSON'))).toBe('mismatch');
    expect(result('Ann Jonson', person('ANN', null, 'JOHNSON'))).toBe('mismatch'); // a slip, but in 10 letters
    expect(result('Kevin Jonson', person('KEVIN', null, 'JOHNSON'))).toBe('close'); // the same slip in 12
    expect(result('JOAN SMITH', person('JOHN', null, 'SMITH'))).toBe('mismatch');
    expect(result('MARY JONES', person('MARK', null, 'JONES'))).toBe('mismatch');
    expect(result('John Smyth', person('JOHN', null, 'SMITH'))).toBe('mismatch');
  });

  it('when the given name or the surname is another, or the middle names differ, then it is a mismatch', () => {
    expect(result('Mary Smith', JOHN)).toBe('mismatch');
    expect(result('James Andrew Smith', JOHN)).toBe('mismatch');
    expect(result('Andrew Smith', JOHN)).toBe('mismatch'); // the middle name is not the given name
    expect(result('John Andrew Brown', JOHN)).toBe('mismatch');
    expect(result('John Michael Smith', JOHN)).toBe('mismatch');
    expect(result('Robert Smith', person('ROBIN', null, 'SMITH'))).toBe('mismatch');
    expect(result('Albert Smith', person('ALFRED', null, 'SMITH'))).toBe('mismatch'); // both go by AL: not one name
  });

  it('when a query gives only a surname or only a first name then it is close when that part pairs, at the lowest close score', () => {
    expect(matchName({ last_name: 'Smith' }, JOHN)).toMatchObject({ result: 'close', score: 0.6 });
    expect(matchName({ first_name: 'John' }, JOHN)).toMatchObject({ result: 'close', score: 0.6 });
    expect(result({ last_name: 'Brown' }, JOHN)).toBe('mismatch');
    expect(result({ first_name: 'Mary' }, JOHN)).toBe('mismatch');
  });

  it('when the record holds its name in any published shape then the same query pairs with it', () => {
    const shapes: RecordNames[] = [
      { full_name: 'JOHN ANDREW SMITH', first_name: 'JOHN', middle_name: 'ANDREW', last_name: 'SMITH' }, // TX
      { full_name: 'JOHN ANDREW SMITH' }, // a full name alone
      { full_name: 'SMITH, JOHN ANDREW', first_name: 'JOHN', middle_name: 'ANDREW', last_name: 'SMITH' }, // FL
      { full_name: 'SMITH, JOHN ANDREW' },
      { full_name: 'SMITH JOHN ANDREW', first_name: 'JOHN', middle_name: 'ANDREW', last_name: 'SMITH' }, // NY
      { first_name: 'JOHN', middle_name: 'ANDREW', last_name: 'SMITH' },
    ];
    for (const r of shapes) {
      expect(result('John A. Smith', r), JSON.stringify(r)).toBe('close');
      expect(result('Smith, John Andrew', r), JSON.stringify(r)).toBe('exact');
    }
    expect(result('Katherine Osullivan', { full_name: "O'SULLIVAN, KATHERINE" })).toBe('exact');
    expect(result('Robert Smith', { full_name: 'ROBERT SMITH V' })).toBe('exact');
    expect(result('Robert Smith', { full_name: 'SMITH JR, ROBERT A' })).toBe('close');
    expect(matchName({ name: 'John Smith' }, shapes[5])?.compared_with).toEqual({ field: 'full_name', value: 'JOHN ANDREW SMITH' });
    expect(matchName({ name: 'John Smith' }, shapes[2])?.compared_with.value).toBe('SMITH, JOHN ANDREW');
  });
});

describe('matchName on businesses (made-up names)', () => {
  const firm: RecordNames = { full_name: 'SMITH & JONES REALTY GROUP, LLC', business_name: 'SMITH & JONES REALTY GROUP, LLC' };

  it('when only case, punctuation, & or AND, THE and the legal ending differ then it is exact, compared with the business name', () => {
    for (const q of ['Smith and Jones Realty Group', 'The Smith & Jones Realty Group L.L.C.', 'SMITH AND JONES REALTY GROUP LIMITED LIABILITY COMPANY', 'smith & jones realty group inc', 'Realty Group Smith Jones']) {
      expect(matchName({ name: q }, firm), q).toEqual({ result: 'exact', score: 1, compared_with: { field: 'business_name', value: 'SMITH & JONES REALTY GROUP, LLC' } });
    }
    expect(result('Harbor Homes Co', { business_name: 'HARBOR HOMES (THE)' })).toBe('exact');
  });

  it('when a long word has a typing slip then it is close; a word more or less, or another word, is another firm', () => {
    expect(result('Smith & Jones Reatly Group', firm)).toBe('close');
    expect(result('Smith & Jones Realty', firm)).toBe('mismatch');
    expect(result('Smith & Jones Realty Group Referral', firm)).toBe('mismatch');
    expect(result('Smith & Jones Property Group', firm)).toBe('mismatch');
  });
});

describe('matchName in general', () => {
  it('when the record holds no name then it answers null; an empty query is a mismatch', () => {
    expect(matchName({ name: 'John Smith' }, {})).toBeNull();
    expect(matchName({ name: 'John Smith' }, { full_name: ' ', first_name: null, business_name: '' })).toBeNull();
    expect(matchName({ name: '' }, JOHN)).toMatchObject({ result: 'mismatch', score: 0 });
  });

  it('when it answers then the score is 1 for exact, 0.6 to 0.97 for close and below 0.5 for a mismatch', () => {
    const queries = ['John Andrew Smith', 'J Smith', 'Jon Smith', 'Mary Smith', 'Bob Smith', 'Chirstopher Smith', 'Smith', 'Acme', 'John Andrew Smyth'];
    for (const q of queries) {
      const m = matchName({ name: q }, JOHN)!;
      expect(NAME_MATCH_RESULTS).toContain(m.result);
      if (m.result === 'exact') expect(m.score).toBe(1);
      else if (m.result === 'close') expect(m.score >= 0.6 && m.score <= 0.97, `${q}: ${m.score}`).toBe(true);
      else expect(m.score >= 0 && m.score < 0.5, `${q}: ${m.score}`).toBe(true);
    }
  });

  it('when the record has a business name and a person name then the better comparison answers', () => {
    const both: RecordNames = { full_name: 'JANE DOE', first_name: 'JANE', last_name: 'DOE', business_name: 'DOE REALTY LLC' };
    expect(matchName({ name: 'Doe Realty' }, both)).toMatchObject({ result: 'exact', compared_with: { field: 'business_name' } });
    expect(matchName({ name: 'Jane Doe' }, both)).toMatchObject({ result: 'exact', compared_with: { field: 'full_name', value: 'JANE DOE' } });
  });
});

// The labelled pairs (bench/names/build-pairs.ts), frozen before the matcher was tuned: a change to
// the set changes this hash, and must say why (a labelling fix, never a relabel to fit the matcher).
const PAIRS_SHA256 = '04bcd586abc850e40d56c319d255ba96ea384c0a74b91feab7e7962175ecf7ef';

describe('the labelled name pairs (bench/names/pairs.jsonl)', () => {
  it('when read then they are the frozen set: at least 300 pairs, 30% or more of them hard negatives', () => {
    expect(createHash('sha256').update(fs.readFileSync(PAIRS_FILE)).digest('hex')).toBe(PAIRS_SHA256);
    const pairs = readPairs();
    expect(pairs.length).toBeGreaterThanOrEqual(300);
    expect(pairs.filter((p) => HARD_NEGATIVE_KINDS.has(p.kind)).length / pairs.length).toBeGreaterThanOrEqual(0.3);
  });

  it.skipIf(!hasShared)(
    `when resolved from the real source files then exact + close has precision 0.98 or more and recall 0.95 or more${hasShared ? '' : ' (skipped: ../shared/data/sources absent)'}`,
    () => {
      const s = score(resolvePairs(SHARED_SOURCES), matchName);
      const errors = s.errors.map(({ r, got }) => `#${r.pair.id} ${r.pair.kind}: ${got?.result ?? 'null'}`);
      expect(s.pairs).toBe(readPairs().length);
      expect(s.precision, errors.join('\n')).toBeGreaterThanOrEqual(0.98);
      expect(s.recall, errors.join('\n')).toBeGreaterThanOrEqual(0.95);
    },
  );
});
