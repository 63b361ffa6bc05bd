// True from the first render where `flag` was true on: mounts a lazily loaded piece (a modal) when it is
// first wanted and keeps it mounted, so its later openings and closings animate as usual.
import { useState } from 'react';

export function useOnceTrue(flag: boolean): boolean {
  const [seen, setSeen] = useState(flag);
  if (flag && !seen) setSeen(true);
  return seen || flag;
}
