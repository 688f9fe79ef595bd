/** The value of a JSON text, or why it is not one (shown next to the field that holds it). */
export function parseJson(text: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: 'not valid JSON' };
  }
}
