import { useCallback, useState } from 'react';
import { createApiKey, createSecret, deleteSecret, listApiKeys, listSecrets, revokeApiKey, rotateSecret } from '../api';
import type { KeyScope } from '../api-types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Pager } from '../components/Pager';
import { formatTime } from '../format';
import { useListChange } from '../hooks/useListChange';
import { usePagedList } from '../hooks/usePagedList';

const SCOPES: KeyScope[] = ['read', 'write', 'ingest', 'admin'];

/** The organization's API keys and secrets (admin keys only: others see the API's refusal). */
export function SettingsPage() {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Settings</h1>
      </div>
      <ApiKeys />
      <Secrets />
    </section>
  );
}

function ApiKeys() {
  const list = usePagedList(useCallback((cursor: string | null) => listApiKeys(cursor, 50), []));
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<KeyScope[]>(['read']);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const { error, change } = useListChange(list);

  // These catch their own errors (change() keeps them for ErrorNotice): the form and buttons call them with `void`.
  async function create(event: React.FormEvent) {
    event.preventDefault();
    await change(async () => {
      const key = await createApiKey({ name: name.trim(), scopes });
      setCreated({ name: key.name, key: key.key });
      setName('');
    });
  }

  async function revoke(id: string, keyName: string) {
    if (!window.confirm(`Revoke the key "${keyName}"? Every client using it is refused from now on.`)) return;
    await change(() => revokeApiKey(id));
  }

  return (
    <section className="card" aria-labelledby="keys-title">
      <div className="card-head">
        <h2 id="keys-title">API keys</h2>
        <form className="inline-form" onSubmit={(event) => void create(event)} aria-label="New API key">
          <label className="field compact">
            <span>Key name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
          </label>
          <fieldset className="scopes">
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <label key={scope} className="checkbox inline">
                <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
                {scope}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="secondary" disabled={!name.trim() || scopes.length === 0}>
            Create key
          </button>
        </form>
      </div>
      {created && <ShownOnce what={`API key "${created.name}"`} value={created.key} onDone={() => setCreated(null)} />}
      <ErrorNotice error={error ?? list.error} />
      {list.page && (
        <table className="data-table flat">
          <caption className="visually-hidden">API keys of the organization, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scopes</th>
              <th scope="col">Projects</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.page.data.map((k) => (
              <tr key={k.id}>
                <td className="strong">{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>
                  {k.scopes.map((s) => (
                    <span key={s} className="tag">
                      {s}
                    </span>
                  ))}
                </td>
                <td className="muted">{k.projectIds ? `${k.projectIds.length} project${k.projectIds.length === 1 ? '' : 's'}` : 'all'}</td>
                <td>{formatTime(k.createdAt)}</td>
                <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : <span className="muted">never</span>}</td>
                <td className="actions">
                  <button type="button" className="secondary danger" onClick={() => void revoke(k.id, k.name)} aria-label={`Revoke key ${k.name}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager list={list} label="API key pages" />
    </section>
  );
}

function Secrets() {
  const list = usePagedList(useCallback((cursor: string | null) => listSecrets(cursor, 50), []));
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [hosts, setHosts] = useState('');
  const { error, change } = useListChange(list);
  const [saved, setSaved] = useState<string | null>(null);
  const hostList = () =>
    hosts
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);

  // These catch their own errors (change() keeps them for ErrorNotice): the form and buttons call them with `void`.
  async function create(event: React.FormEvent) {
    event.preventDefault();
    await change(async () => {
      const secret = await createSecret({ name: name.trim(), value, allowedHosts: hostList() });
      setSaved(`Secret ${secret.name} saved. Its value is never shown again: reference it as { "secret": "${secret.name}" }.`);
      setName('');
      setValue('');
      setHosts('');
    });
  }

  async function rotate(id: string, secretName: string) {
    const next = window.prompt(`New value for ${secretName} (replaces the current one):`);
    if (!next) return;
    await change(async () => {
      await rotateSecret(id, { value: next });
      setSaved(`Secret ${secretName} rotated.`);
    });
  }

  async function remove(id: string, secretName: string) {
    if (!window.confirm(`Delete the secret ${secretName}?`)) return;
    await change(() => deleteSecret(id));
  }

  return (
    <section className="card" aria-labelledby="secrets-title">
      <div className="card-head">
        <h2 id="secrets-title">Secrets</h2>
        <form className="inline-form" onSubmit={(event) => void create(event)} aria-label="New secret">
          <label className="field compact">
            <span>Secret name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} placeholder="OPENAI_API_KEY" required />
          </label>
          <label className="field compact">
            <span>Value</span>
            <input type="password" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" required />
          </label>
          <label className="field compact">
            <span>Allowed hosts</span>
            <input value={hosts} onChange={(e) => setHosts(e.target.value)} placeholder="api.openai.com" />
          </label>
          <button type="submit" className="secondary" disabled={!name.trim() || !value}>
            Save secret
          </button>
        </form>
      </div>
      {saved && (
        <p className="notice pad-notice" role="status">
          {saved}
        </p>
      )}
      <ErrorNotice error={error ?? list.error} />
      {list.page && (
        <table className="data-table flat">
          <caption className="visually-hidden">Secrets of the organization, never their values</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Allowed hosts</th>
              <th scope="col">Created</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.page.data.map((s) => (
              <tr key={s.id}>
                <td className="strong">
                  <code>{s.name}</code>
                </td>
                <td>{s.allowedHosts.length ? s.allowedHosts.join(', ') : <span className="muted">any allowed host</span>}</td>
                <td>{formatTime(s.createdAt)}</td>
                <td>{formatTime(s.updatedAt)}</td>
                <td className="actions">
                  <button type="button" className="secondary" onClick={() => void rotate(s.id, s.name)} aria-label={`Rotate secret ${s.name}`}>
                    Rotate
                  </button>{' '}
                  <button type="button" className="secondary danger" onClick={() => void remove(s.id, s.name)} aria-label={`Delete secret ${s.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager list={list} label="Secret pages" />
    </section>
  );
}

/** A new key, shown this once with a copy button: the API never gives it again. */
function ShownOnce({ what, value, onDone }: { what: string; value: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice shown-once" role="status">
      <p>
        <strong>{what} created.</strong> Copy it now: it is not shown again.
      </p>
      <div className="shown-once-value">
        <code aria-label="New key">{value}</code>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
