const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

/**
 * Compiles a glob to an anchored regular expression. `*` matches any run of characters except `/`,
 * `**` any run including `/` (`**` directly followed by `/` matches zero or more whole directories), `?` one character except `/`,
 * and `\x` the character `x` literally. Everything else is literal (no `[...]` classes or `{a,b}`).
 */
export function compileGlob(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === '\\') {
      const next = glob[index + 1];
      source += escapeRegex(next ?? '\\');
      index++;
    } else if (char === '*') {
      if (glob[index + 1] === '*') {
        if (glob[index + 2] === '/') {
          source += '(?:.*/)?';
          index += 2;
        } else {
          source += '.*';
          index++;
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += escapeRegex(char);
    }
  }
  // `u`: `?` and `[^/]` step over whole code points, so an emoji is one character.
  return new RegExp(`^${source}$`, 'su');
}

const LITERAL = 0;
const ONE = 1;
const STAR = 2;
const ANY = 3;
const DIRS_ENTRY = 4;
const DIRS_BODY = 5;
const SLASH = 0x2f;

/** The glob as NFA states: `kinds[i]` and, for a literal, the code point it matches. */
function globStates(glob: string): { kinds: number[]; points: number[]; stars: number } {
  const kinds: number[] = [];
  const points: number[] = [];
  let stars = 0;
  const literal = (point: number) => {
    kinds.push(LITERAL);
    points.push(point);
  };
  for (let index = 0; index < glob.length; ) {
    const point = glob.codePointAt(index)!;
    const width = point > 0xffff ? 2 : 1;
    if (point === 0x5c) {
      const next = glob.codePointAt(index + 1);
      literal(next ?? 0x5c);
      index += 1 + (next === undefined ? 0 : next > 0xffff ? 2 : 1);
    } else if (point === 0x2a) {
      stars++;
      if (glob[index + 1] === '*') {
        if (glob[index + 2] === '/') {
          kinds.push(DIRS_ENTRY, DIRS_BODY);
          points.push(0, 0);
          index += 3;
        } else {
          kinds.push(ANY);
          points.push(0);
          index += 2;
        }
      } else {
        kinds.push(STAR);
        points.push(0);
        index++;
      }
    } else if (point === 0x3f) {
      kinds.push(ONE);
      points.push(0);
      index++;
    } else {
      literal(point);
      index += width;
    }
  }
  return { kinds, points, stars };
}

/** Adds the states reachable without reading a character (they only lead forward). */
function closeOver(kinds: readonly number[], active: Uint8Array): void {
  for (let state = 0; state < kinds.length; state++) {
    if (active[state] === 0) continue;
    const kind = kinds[state];
    if (kind === STAR || kind === ANY) active[state + 1] = 1;
    else if (kind === DIRS_ENTRY) {
      active[state + 1] = 1;
      active[state + 2] = 1;
    }
  }
}

/**
 * A whole-value glob test, with the semantics of {@link compileGlob}, that runs in O(length × glob
 * size) whatever the input. A glob with two or more stars compiled to a backtracking regex takes
 * polynomial time on a long value that almost matches (`**a**a**b` against 2 000 `a` takes seconds),
 * and the value is the model's; so such globs run as a state set instead. Globs with at most one
 * star keep the regex, which is linear for them.
 */
export function compileGlobMatcher(glob: string): (text: string) => boolean {
  const { kinds, points, stars } = globStates(glob);
  if (stars <= 1) {
    const regex = compileGlob(glob);
    return (text) => regex.test(text);
  }
  const size = kinds.length + 1;
  return (text) => {
    let active = new Uint8Array(size);
    let next = new Uint8Array(size);
    active[0] = 1;
    closeOver(kinds, active);
    for (let index = 0; index < text.length; ) {
      const point = text.codePointAt(index)!;
      index += point > 0xffff ? 2 : 1;
      next.fill(0);
      let any = false;
      for (let state = 0; state < kinds.length; state++) {
        if (active[state] === 0) continue;
        const kind = kinds[state];
        if (kind === ANY || kind === DIRS_BODY || (kind === STAR && point !== SLASH)) {
          next[state] = 1;
          any = true;
        }
        if (
          (kind === LITERAL && points[state] === point) ||
          (kind === ONE && point !== SLASH) ||
          (kind === DIRS_BODY && point === SLASH)
        ) {
          next[state + 1] = 1;
          any = true;
        }
      }
      if (!any) return false;
      closeOver(kinds, next);
      [active, next] = [next, active];
    }
    return active[kinds.length] === 1;
  };
}

/** True when `text` contains an unescaped glob wildcard (`*` or `?`). */
export function hasGlobWildcard(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '*' || char === '?') return true;
  }
  return false;
}

/** Number of literal (non-wildcard) characters of a glob: longer literals are more specific. */
export function globLiteralLength(glob: string): number {
  let count = 0;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '\\') {
      index++;
      count++;
    } else if (char !== '*' && char !== '?') count++;
  }
  return count;
}
