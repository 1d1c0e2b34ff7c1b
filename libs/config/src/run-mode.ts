/** How the processes are laid out: one process on embedded stores, or one per app. */
export type RunMode = 'all-in-one' | 'distributed';
