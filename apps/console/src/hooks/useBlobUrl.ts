import { useEffect, useState } from 'react';

export interface BlobUrl {
  /** An object URL of the blob once fetched (revoked when the component goes or `load` changes). */
  url: string | null;
  error: unknown;
}

/**
 * Fetches a blob with `load` and gives an object URL of it: how the console shows media that
 * needs the project's key, which an element's `src` cannot send. `load` null: nothing to fetch.
 */
export function useBlobUrl(load: ((signal: AbortSignal) => Promise<Blob>) | null): BlobUrl {
  const [state, setState] = useState<BlobUrl>({ url: null, error: null });
  useEffect(() => {
    setState({ url: null, error: null });
    if (!load) return;
    const abort = new AbortController();
    let url: string | null = null;
    load(abort.signal).then(
      (blob) => {
        if (abort.signal.aborted) return;
        url = URL.createObjectURL(blob);
        setState({ url, error: null });
      },
      (error: unknown) => !abort.signal.aborted && setState({ url: null, error }),
    );
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [load]);
  return state;
}
