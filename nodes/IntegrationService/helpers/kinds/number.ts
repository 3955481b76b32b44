import type { IExecuteFunctions } from 'n8n-workflow';

import type { ValueCheck } from '../validation';
import { inputError, shown } from '../validation';
import type { Kind } from './kind';
import { editor, isUnsetValue, named, shown as shownParts } from './kind';

/** Every number the node sends or obeys is read here, and none is ever rounded. */

/**
 * A required number is a number parameter; an optional one is text holding a number, so a model's
 * `$fromAI` (typed as the parameter) can give "" for "not set" rather than 0.
 */
export const number: Kind = {
	property(spec) {
		const min = spec.min !== undefined ? { minValue: spec.min } : undefined;
		if (spec.required) return editor(spec, 'number', 0, min);
		return {
			...named(spec),
			...(min ? { typeOptions: min } : {}),
			...shownParts(spec),
			type: 'string',
			default: '',
			validateType: 'number',
			ignoreValidationDuringExecution: true,
		};
	},
	// n8n fills every part's default into each entry it adds: a 0 nobody typed must not be sent.
	part: (spec, fields) =>
		spec.required ? fields.property(spec) : { ...fields.property(spec), default: null },
	read({ ctx, itemIndex, label }, spec, raw) {
		if (isUnsetValue(raw)) {
			if (spec.required) throw inputError(ctx, itemIndex, label, 'is required but empty');
			return undefined;
		}
		const value = toNumber(ctx, itemIndex, label, raw);
		if (spec.min !== undefined && value < spec.min) {
			const problem = spec.min === 0 ? 'must not be negative' : `must be at least ${spec.min}`;
			throw inputError(ctx, itemIndex, label, problem);
		}
		return value;
	},
	words: () => 'number',
};

/** A number as people write one (sign, whole, fraction, exponent); not "0x10", "0b101" or "0o17". */
const DECIMAL = /^\s*([+-]?)(?=\.?\d)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?\s*$/;

/** A numeral as sign, significant digits and power of ten: "+012.50" and "1.25e1" are both `125e-1`. */
function exactDecimal(numeral: string): string {
	const [, sign, whole, fraction, exponent] = DECIMAL.exec(numeral) as RegExpExecArray;
	const digits = `${whole}${fraction}`.replace(/^0+/, '');
	const significant = digits.replace(/0+$/, '');
	if (significant === '') return '0';
	const power = Number(exponent ?? 0) - fraction.length + (digits.length - significant.length);
	return `${sign === '-' ? '-' : ''}${significant}e${power}`;
}

/** A number, or text that is exactly one ("12.5", not "twelve"); beyond ±(2^53 − 1) is refused. */
export const toNumber: ValueCheck<number> = (ctx, itemIndex, field, value) => {
	const number = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number)) {
		throw inputError(ctx, itemIndex, field, `must be a number, got ${shown(value)}`);
	}
	if (Math.abs(number) > Number.MAX_SAFE_INTEGER) {
		const problem = `is beyond ±${Number.MAX_SAFE_INTEGER}, where a number loses digits; it is not sent rounded`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	if (typeof value === 'string' && exactDecimal(value) !== exactDecimal(String(number))) {
		const problem =
			'has more digits than a number holds exactly (15 significant digits always fit); it is not sent rounded';
		throw inputError(ctx, itemIndex, field, problem);
	}
	return number;
};

export function toWholeNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	min: number,
	max?: number,
): number {
	const number = toNumber(ctx, itemIndex, field, value);
	if (!Number.isInteger(number))
		throw inputError(ctx, itemIndex, field, `must be a whole number, got ${number}`);
	if (number < min || (max !== undefined && number > max)) {
		const range = max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
		throw inputError(ctx, itemIndex, field, `must be ${range}, got ${number}`);
	}
	return number;
}
