/** Thrown inside the parser; `parseRule` turns it into a {@link RuleParseError} value. */
export class RuleSyntaxFailure {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {}
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
};

const PASS_THROUGH_ESCAPES = new Set([...'*?.+()[]{}|^$dDwWsSbB']);

const ALLOWED_REGEX_FLAGS = new Set(['i', 'm', 's', 'u']);

/** A cursor over one rule's text with the lexical pieces shared by every part of the grammar. */
export class RuleScanner {
  position = 0;

  constructor(readonly text: string) {}

  get atEnd(): boolean {
    return this.position >= this.text.length;
  }

  peek(offset = 0): string | undefined {
    return this.text[this.position + offset];
  }

  startsWith(token: string): boolean {
    return this.text.startsWith(token, this.position);
  }

  skipWhitespace(): void {
    while (!this.atEnd && /\s/.test(this.text[this.position]!)) this.position++;
  }

  fail(reason: string, position = this.position): never {
    throw new RuleSyntaxFailure(position, reason);
  }

  expect(token: string, what = `'${token}'`): void {
    if (!this.startsWith(token)) this.fail(`expected ${what}, found ${this.describeHere()}`);
    this.position += token.length;
  }

  describeHere(): string {
    return this.atEnd ? 'end of rule' : `'${this.text[this.position]}'`;
  }

  /** Reads a `"..."` or `'...'` string with escapes `\" \' \\ \/ \n \t \r \uXXXX`. */
  readQuotedString(): string {
    const start = this.position;
    const quote = this.peek();
    if (quote !== '"' && quote !== "'") this.fail(`expected a quoted string, found ${this.describeHere()}`);
    this.position++;
    let value = '';
    while (!this.atEnd) {
      const char = this.text[this.position]!;
      if (char === quote) {
        this.position++;
        return value;
      }
      if (char === '\\') {
        value += this.readEscape();
        continue;
      }
      value += char;
      this.position++;
    }
    return this.fail(`unterminated string (opened with ${quote})`, start);
  }

  private readEscape(): string {
    const at = this.position;
    const code = this.text[at + 1];
    if (code === undefined) this.fail('unfinished escape sequence at end of rule', at);
    const simple = SIMPLE_ESCAPES[code];
    if (simple !== undefined) {
      this.position += 2;
      return simple;
    }
    if (code === 'u') {
      const hex = this.text.slice(at + 2, at + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('\\u must be followed by four hex digits', at);
      this.position += 6;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    // Glob and regex escapes pass through unchanged, so `"\\d+"` is not needed for `\d+`.
    if (PASS_THROUGH_ESCAPES.has(code)) {
      this.position += 2;
      return `\\${code}`;
    }
    return this.fail(`unknown escape sequence '\\${code}'`, at);
  }

  /**
   * Reads `/source/flags` and compiles it. `\/` inside stands for `/`. Flags `g` and `y` are refused
   * because they make `test()` stateful. With `anchored`, the regex must match the whole input.
   */
  readRegexLiteral(anchored: boolean): { source: string; regex: RegExp } {
    const start = this.position;
    this.expect('/');
    let body = '';
    while (!this.atEnd && this.peek() !== '/') {
      if (this.peek() === '\\' && this.peek(1) !== undefined) {
        body += this.peek(1) === '/' ? '/' : `\\${this.peek(1)}`;
        this.position += 2;
      } else {
        body += this.peek();
        this.position++;
      }
    }
    if (this.atEnd) this.fail('unterminated regular expression (missing closing /)', start);
    this.position++;
    let flags = '';
    while (!this.atEnd && /[a-z]/i.test(this.peek()!)) {
      const flag = this.peek()!;
      if (!ALLOWED_REGEX_FLAGS.has(flag)) this.fail(`regex flag '${flag}' is not allowed (use i, m, s or u)`);
      flags += flag;
      this.position++;
    }
    if (body === '') this.fail('empty regular expression', start);
    return {
      source: this.text.slice(start, this.position),
      regex: compileRegex(body, flags, anchored, start),
    };
  }
}

/** Compiles a regex, turning a syntax error into a parse failure at `position`. */
export function compileRegex(body: string, flags: string, anchored: boolean, position: number): RegExp {
  try {
    return new RegExp(anchored ? `^(?:${body})$` : body, flags);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new RuleSyntaxFailure(position, `invalid regular expression: ${detail}`);
  }
}
