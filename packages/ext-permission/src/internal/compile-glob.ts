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
