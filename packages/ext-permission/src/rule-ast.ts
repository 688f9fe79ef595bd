/** How a rule names the tools it applies to. */
export type ToolPattern =
  | { kind: 'exact'; name: string }
  /** `*` and `?` wildcards; the source text is kept for reporting. */
  | { kind: 'glob'; source: string; regex: RegExp }
  /** `/.../flags`, matched against the whole tool name. */
  | { kind: 'regex'; source: string; regex: RegExp };

/** One step of a field path: a property name, an array index, or every element (`[*]`). */
export type PathSegment =
  | { kind: 'property'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' };

/** Condition operators: glob `~`, exact `=`, regex `=~`, and their negations. */
export type ConditionOperator = '~' | '=' | '=~' | '!~' | '!=' | '!=~';

/** A JSON literal compared with `=` / `!=`. */
export type LiteralValue = string | number | boolean | null;

/** A test on one field of the arguments, e.g. `file.path ~ "src/**"`. */
export type FieldCondition =
  | { kind: 'glob'; path: PathSegment[]; pathText: string; negated: boolean; source: string; regex: RegExp }
  | {
      kind: 'equals';
      path: PathSegment[];
      pathText: string;
      negated: boolean;
      value: LiteralValue;
    }
  | { kind: 'regex'; path: PathSegment[]; pathText: string; negated: boolean; source: string; regex: RegExp };

/** What a rule requires of the arguments. */
export type ArgumentPattern =
  /** `Tool` or `Tool(*)`: any arguments. */
  | { kind: 'any' }
  /** `Tool(npm *)`: a glob on the call's primary argument. */
  | { kind: 'primary'; source: string; regex: RegExp }
  /** `Tool(a ~ "x", b = 1)`: every condition must hold. */
  | { kind: 'conditions'; conditions: FieldCondition[] };

/** A parsed permission rule. `text` is the rule as written. */
export interface PermissionRule {
  text: string;
  tool: ToolPattern;
  arguments: ArgumentPattern;
}

/** Where and why a rule failed to parse. `position` is a 0-based character offset into the rule. */
export interface RuleParseError {
  position: number;
  reason: string;
  /** `reason` with the position and the rule text, ready to show. */
  message: string;
}

export type RuleParseResult = { ok: true; rule: PermissionRule } | { ok: false; error: RuleParseError };
