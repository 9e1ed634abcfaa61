import { useSyncExternalStore } from 'react';

/**
 * The current time, ticking once a second for every countdown on screen from one shared timer
 * (started with the first subscriber, stopped with the last), so a page of 100 rows costs one interval.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export const useNow = (): number => useSyncExternalStore(subscribe, () => now);
