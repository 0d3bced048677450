/**
 * The state the immer benchmark and its profiler share: {validators,
 * balances} of 2^18 each, balances as numbers (an immer-friendly plain
 * value), built from the synthetic validators of `validator.ts`.
 */
import { container, list, uint64Number } from '@ssztree/types';
import { Validator, validatorValue } from './validator.js';

export const IMMER_N = 2 ** 18;
export const ImmerState = container({ validators: list(Validator, 2 ** 40), balances: list(uint64Number, 2 ** 40) }, 'State');
export type ImmerStateValue = ReturnType<typeof ImmerState.defaultValue>;

/** A fresh plain (unfrozen) state of `n` validators and balances. */
export function makeImmerState(n = IMMER_N): ImmerStateValue {
  const validators = new Array<ImmerStateValue['validators'][number]>(n);
  const balances = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    validators[i] = validatorValue(i);
    balances[i] = 32_000_000_000 + (i % 1000);
  }
  return { validators, balances };
}
