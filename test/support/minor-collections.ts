import { constants, PerformanceObserver } from 'node:perf_hooks';

/** How many minor (young-generation) collections V8 reports while `run` runs, waiting 50 ms for the reports. */
export const minorCollectionsDuring = async (run: () => void): Promise<number> => {
  let minor = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if ((e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor += 1;
  });
  observer.observe({ entryTypes: ['gc'] });
  run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return minor;
};
