import { useState } from 'react';
import { ApiError, listProjects } from '../api';
import { signIn } from '../session';

/** Checks the key against the API (listing projects) before keeping it in sessionStorage. */
export function SignInPage({ onSignedIn }: { signedIn: boolean; onSignedIn(): void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Catches its own errors (shown as `error`): the form calls it with `void`, nothing to await.
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await listProjects({ key: key.trim(), limit: 1 });
      signIn(key.trim());
      onSignedIn();
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? 'This API key is not valid.' : `Could not sign in: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form className="card sign-in-card" onSubmit={(event) => void submit(event)}>
        <h1>
          <span className="brand-mark" aria-hidden="true">
            ▶
          </span>{' '}
          Cinetrace
        </h1>
        <p className="muted">Traces, prompts and benchmarks of your video generation pipelines.</p>
        <label className="field">
          <span>API key</span>
          <input type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} required placeholder="ct_…" />
        </label>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !key.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="hint">
          The first start prints a key and writes it to <code>data/bootstrap-api-key</code>. It stays in this tab only.
        </p>
      </form>
    </main>
  );
}
