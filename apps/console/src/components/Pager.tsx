import type { PagedList } from '../hooks/usePagedList';

/** Previous / Next over a keyset-paged list. */
export function Pager({ list, label = 'Pages' }: { list: PagedList<unknown>; label?: string }) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={!list.hasPrevious} onClick={list.previous}>
        Previous
      </button>
      <span className="muted">Page {list.number}</span>
      <button type="button" className="secondary" disabled={!list.hasNext} onClick={list.next}>
        Next
      </button>
    </nav>
  );
}
