import type { OutputUnit } from '@cfworker/json-schema';

/** One way a value fails a JSON Schema: the field path (`a.b[0].c`, `(root)`) and what is wrong. */
export interface JsonSchemaIssue {
  path: string;
  message: string;
}

/** Keywords whose error only says "something below failed"; the errors below say what. */
const SUMMARY_KEYWORDS = new Set([
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependencies',
  'propertyNames',
]);

/** Keywords whose sub-errors describe alternatives that were tried, not what the caller must fix. */
const ALTERNATIVE_KEYWORDS = new Set(['anyOf', 'oneOf', 'not', 'contains']);

function pointerSegments(pointer: string): string[] {
  const path = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Turns an instance location (`#/list/1/name`) into a field path (`list[1].name`), walking the value. */
function fieldPath(value: unknown, segments: readonly string[]): string {
  let path = '';
  let current = value;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      path += `[${segment}]`;
      current = current[Number(segment)];
    } else {
      path += path === '' ? segment : `.${segment}`;
      current =
        typeof current === 'object' && current !== null && Object.hasOwn(current, segment)
          ? (current as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return path === '' ? '(root)' : path;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function valueAt(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function isUnder(unit: OutputUnit, parent: OutputUnit): boolean {
  return unit.keywordLocation.startsWith(`${parent.keywordLocation}/`);
}

function rewrite(unit: OutputUnit, units: readonly OutputUnit[], value: unknown): JsonSchemaIssue {
  const segments = pointerSegments(unit.instanceLocation);
  const path = fieldPath(value, segments);
  switch (unit.keyword) {
    case 'type': {
      const expected = /Expected (.*)\.$/.exec(unit.error)?.[1]?.replaceAll('"', '').replaceAll(',', ' |');
      return {
        path,
        message: `expected ${expected ?? 'another type'}, got ${typeName(valueAt(value, segments))}`,
      };
    }
    case 'required': {
      const name = /required property "(.*)"\.$/.exec(unit.error)?.[1];
      return name === undefined
        ? { path, message: unit.error }
        : { path: fieldPath(value, [...segments, name]), message: 'is required' };
    }
    case 'enum': {
      const options = /any of (.*)\.$/.exec(unit.error)?.[1];
      return { path, message: options === undefined ? unit.error : `must be one of ${options}` };
    }
    case 'const': {
      const expected = /^Instance does not match (.*)\.$/.exec(unit.error)?.[1];
      return { path, message: expected === undefined ? unit.error : `must equal ${expected}` };
    }
    case 'false': {
      const parent = unit.instanceLocation.slice(0, unit.instanceLocation.lastIndexOf('/')) || '#';
      const closed = units.some(
        (other) =>
          other.instanceLocation === parent &&
          (other.keyword === 'additionalProperties' || other.keyword === 'unevaluatedProperties'),
      );
      return { path, message: closed ? 'is not an allowed property' : 'is not allowed' };
    }
    default:
      return { path, message: unit.error };
  }
}

/**
 * Turns the validator's output units into issues a person can act on: summary units ("a subschema
 * had errors") and the failed branches of anyOf/oneOf/not are dropped in favour of the units that
 * say what is wrong, and every path names a field of the value.
 */
export function toJsonSchemaIssues(units: readonly OutputUnit[], value: unknown): JsonSchemaIssue[] {
  const alternatives = units.filter((unit) => ALTERNATIVE_KEYWORDS.has(unit.keyword));
  const relevant = units.filter((unit) => !alternatives.some((parent) => isUnder(unit, parent)));
  const leaves = relevant.filter((unit) => !SUMMARY_KEYWORDS.has(unit.keyword));
  const chosen = leaves.length > 0 ? leaves : relevant;
  const issues = chosen.map((unit) => rewrite(unit, units, value));
  return issues.filter(
    (issue, index) =>
      issues.findIndex((other) => other.path === issue.path && other.message === issue.message) === index,
  );
}
