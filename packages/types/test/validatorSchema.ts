/**
 * The Validator schema the view, preimage and dispose tests build on: the
 * consensus container's fields (uint64 as bigint) in a plain `container` of
 * its own, not the consensus module's type, so these tests exercise generic
 * containers. Not a test file.
 */
import { mainnet } from '../src/consensus/index.js';
import { container } from '../src/index.js';

export const Validator = container({ ...mainnet.electra.Validator.fields }, 'Validator');
