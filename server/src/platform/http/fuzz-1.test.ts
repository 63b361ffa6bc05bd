// The OpenAPI fuzz test, part 1 (test/run-fuzz.ts deals the operations into the parts).
import { describeFuzz } from '../../test/run-fuzz';

describeFuzz(1);
