import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError, shown } from '../validation';
import type { Kind } from './kind';
import { isUnsetValue, named, shown as shownParts } from './kind';

/**
 * Numbers: a number parameter, or text from an expression, an input row or a record that holds one.
 * Every number the node sends or obeys is read here, and none is ever rounded.
 */

/**
 * A required number is a number parameter. An optional one is text that holds a number: n8n's "let
 * the model define this parameter" writes `$fromAI(key, description, <the parameter's type>)` and
 * makes every key a required value of that type, so a number parameter makes the model give a number
 * (0 when it knows none), a text one lets it give "" (not set). n8n's editor checks typed text with
 * `validateType`; the node checks it when it runs (`ignoreValidationDuringExecution`, so its own
 * messages and the "not set" rule apply). `min` is the lowest value.
 */
export const number: Kind = {
	property(spec) {
		const min = spec.min !== undefined ? { typeOptions: { minValue: spec.min } } : {};
		if (spec.required)
			return { ...named(spec), type: 'number', ...min, default: 0, ...shownParts(spec) };
		return {
			...named(spec),
			...min,
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

/**
 * Text that is a number as people write one: sign, digits, one dot, an exponent, blanks around. Not
 * what JavaScript's Number() also reads ("0x10", "0b101", "0o17"), which would make a value up.
 */
const DECIMAL = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * The value a decimal numeral says, as one canonical text: sign, significant digits, power of ten
 * ("+012.50", "1.25e1" and "125e-1" are all `125e-1`; every zero, "-0" too, is `0`). Two numerals say
 * the same number exactly when their canonical texts are equal.
 */
function exactDecimal(numeral: string): string {
	const [, sign, whole, fraction, exponent] = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(
		numeral.trim(),
	) as RegExpExecArray;
	const digits = `${whole}${fraction}`.replace(/^0+/, '');
	const significant = digits.replace(/0+$/, '');
	if (significant === '') return '0';
	const power = Number(exponent ?? 0) - fraction.length + (digits.length - significant.length);
	return `${sign === '-' ? '-' : ''}${significant}e${power}`;
}

/**
 * A number parameter that may arrive as text from an expression: "12.5" is fine, "twelve" is not.
 * Nothing is rounded (decisions.md, "Numbers are sent exactly or refused"): text must be the very
 * number it becomes, and no number may lie beyond ±(2^53 − 1), where a number (one already read from
 * JSON too) may have lost digits. Those errors name the field, never the value.
 */
export function toNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): number {
	const number = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number)) {
		throw inputError(ctx, itemIndex, field, `must be a number, got ${shown(value)}`);
	}
	if (Math.abs(number) > Number.MAX_SAFE_INTEGER) {
		throw inputError(
			ctx,
			itemIndex,
			field,
			`is beyond ±${Number.MAX_SAFE_INTEGER}, where a number loses digits; it is not sent rounded`,
		);
	}
	if (typeof value === 'string' && exactDecimal(value) !== exactDecimal(String(number))) {
		throw inputError(
			ctx,
			itemIndex,
			field,
			'has more digits than a number holds exactly (15 significant digits always fit); it is not sent rounded',
		);
	}
	return number;
}

/** A whole number within bounds, from a number parameter or from text given by an expression. */
export function toWholeNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	min: number,
	max?: number,
): number {
	const number = toNumber(ctx, itemIndex, field, value);
	if (!Number.isInteger(number)) {
		throw inputError(ctx, itemIndex, field, `must be a whole number, got ${number}`);
	}
	if (number < min || (max !== undefined && number > max)) {
		const range = max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
		throw inputError(ctx, itemIndex, field, `must be ${range}, got ${number}`);
	}
	return number;
}
