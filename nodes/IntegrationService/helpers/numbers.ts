import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError, shown } from './validation';

/**
 * Input checks of numbers: a number parameter, or text from an expression, an input row or a record
 * that holds one. Every number the node sends or obeys is read here, and none is ever rounded.
 */

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
