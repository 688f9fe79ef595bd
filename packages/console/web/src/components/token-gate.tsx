import { useState } from 'react';

/** Asks for the bearer token when the server answers 401; it is kept in this tab only. */
export function TokenGate({ onToken }: { onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <div className="gate">
      <form
        className="card gate-card"
        onSubmit={(event) => {
          event.preventDefault();
          if (value.trim()) onToken(value.trim());
        }}
      >
        <h1>Sign in to Awaken</h1>
        <p className="muted">
          This server needs a bearer token (one of <code>AWAKEN_TOKENS</code>). It stays in this tab's session
          storage and is sent only to this server.
        </p>
        <label htmlFor="token">Token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          // biome-ignore lint/a11y/noAutofocus: the only field of the page
          autoFocus
        />
        <button type="submit" className="primary">
          Continue
        </button>
      </form>
    </div>
  );
}
