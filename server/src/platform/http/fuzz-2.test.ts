// The OpenAPI fuzz test, part 2 (test/run-fuzz.ts deals the operations into the parts).
import { describeFuzz } from '../../test/run-fuzz';

describeFuzz(2);
