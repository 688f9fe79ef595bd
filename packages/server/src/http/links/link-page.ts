/** The small HTML pages of approval links: self-contained, no script, every value escaped. */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{background:#f4f4f4;padding:.75rem;border-radius:6px;overflow:auto;white-space:pre-wrap}
textarea{width:100%;box-sizing:border-box}button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}
.muted{color:#666;font-size:.9rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** What the approver is asked: the tool, its arguments and the ticket's message, as stored. */
export interface LinkQuestion {
  toolName: string;
  arguments: unknown;
  message: string;
  expiresAt: number;
  approver?: string;
  /** Where the form posts (the link itself). */
  action: string;
}

/** The question with Approve / Deny and a reason field. */
export function questionPage(question: LinkQuestion): string {
  const args = JSON.stringify(question.arguments ?? null, null, 2) ?? 'null';
  const forWhom = question.approver ? ` for ${escapeHtml(question.approver)}` : '';
  return page(
    `Approve ${question.toolName}?`,
    `<h1>Approve <code>${escapeHtml(question.toolName)}</code>?</h1>
<p id="message">${escapeHtml(question.message)}</p>
<h2>Arguments</h2><pre id="arguments">${escapeHtml(args)}</pre>
<form method="post" action="${escapeHtml(question.action)}">
<label for="reason">Reason (optional)</label><br><textarea id="reason" name="reason" rows="3" maxlength="2000"></textarea>
<p><button type="submit" name="answer" value="approve">Approve</button><button type="submit" name="answer" value="deny">Deny</button></p>
</form>
<p class="muted">This link${forWhom} answers this one request and expires ${escapeHtml(new Date(question.expiresAt).toISOString())}.</p>`,
  );
}

/** A page that says what happened (an answer recorded, a link refused) and nothing more. */
export function noticePage(title: string, text: string): string {
  return page(title, `<h1 id="title">${escapeHtml(title)}</h1><p id="notice">${escapeHtml(text)}</p>`);
}
