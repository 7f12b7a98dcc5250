// Values between the service and the driver: parameters as Neo4j wants them, results as plain JSON.
import neo4j, { type Record as Neo4jRecord } from 'neo4j-driver';
import { GraphError } from '../../errors.js';
import type { Row } from '../graph-port.js';

/**
 * Parameters as Neo4j wants them: whole numbers as Integer (a JS number is sent as a float, and
 * SKIP/LIMIT reject floats), recursively. The graph port never passes a JS Date (the driver
 * would send an empty map): dates travel as ISO strings into date($x).
 */
export function toNeo4jParams(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return neo4j.int(value);
  if (value instanceof Date) throw new GraphError('pass dates as ISO strings, not Date objects', false);
  if (Array.isArray(value)) return value.map(toNeo4jParams);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toNeo4jParams(v)]));
  }
  return value;
}

/** Results as plain JSON: Integer to number, Date to YYYY-MM-DD, DateTime to ISO 8601, in lists and maps too. */
export function normalizeNeo4jValue(value: unknown): unknown {
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  if (typeof value === 'bigint') return Number(value);
  if (neo4j.isDate(value)) return value.toString();
  if (neo4j.isDateTime(value) || neo4j.isLocalDateTime(value)) return new Date(value.toString()).toISOString();
  if (Array.isArray(value)) return value.map(normalizeNeo4jValue);
  // A Cypher map (a projection): nodes and relationships are never returned whole.
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeNeo4jValue(v)]));
  }
  return value;
}

export function rowOf(record: Neo4jRecord): Row {
  const row: Row = {};
  for (const key of record.keys) row[key as string] = normalizeNeo4jValue(record.get(key));
  return row;
}
