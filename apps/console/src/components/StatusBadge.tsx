/** A trace's or span's status as a coloured word (colour is not the only cue: the word is there). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}
