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
  // Bytes: the driver sends an Int8Array as a byte array (any other would go as a map of numbers).
  if (ArrayBuffer.isView(value)) return new Int8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toNeo4jParams(v)]));
  }
  return value;
}

/**
 * Results as plain JSON: Integer to number, Date to YYYY-MM-DD, DateTime to ISO 8601 (bytes as a
 * Uint8Array), in lists and maps too. Lists and maps are the driver's, fresh per record: they are
 * converted in place, and a scalar (most values) is returned at the first test, since this runs on
 * every value of every page.
 */
export function normalizeNeo4jValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? Number(value) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = normalizeNeo4jValue(value[i]);
    return value;
  }
  // A Cypher map (a projection): nodes and relationships are never returned whole.
  if (Object.getPrototypeOf(value) === Object.prototype) {
    const map = value as Record<string, unknown>;
    for (const key in map) map[key] = normalizeNeo4jValue(map[key]);
    return map;
  }
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  // A byte array arrives as an Int8Array: bytes are unsigned everywhere else.
  if (value instanceof Int8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (neo4j.isDate(value)) return value.toString();
  if (neo4j.isDateTime(value) || neo4j.isLocalDateTime(value)) return new Date(value.toString()).toISOString();
  return value;
}

export function rowOf(record: Neo4jRecord): Row {
  const row: Row = {};
  for (const key of record.keys) row[key as string] = normalizeNeo4jValue(record.get(key));
  return row;
}
