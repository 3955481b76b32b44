/**
 * JSON-object parameters (the node's JSON fields, the trigger's Filters): `jsonObjectOf`, `describeValue`,
 * `isJsonObject`. They live in nodes/shared/service.ts (there is no separate jsonObject module).
 */
import fc from 'fast-check';

import { describeValue, isJsonObject, jsonObjectOf } from '../../nodes/shared/service';

const PROPERTY = { seed: 19, numRuns: 200 };

describe('describeValue', () => {
	it.each([
		[[], 'a list'],
		[[1, 2], 'a list'],
		[null, 'null'],
		[{}, 'an object'],
		[{ a: 1 }, 'an object'],
		[42, 'a number'],
		['text', 'a string'],
		[false, 'a boolean'],
	])('describes %j as %s', (value, words) => {
		expect(describeValue(value)).toBe(words);
	});
});

describe('isJsonObject', () => {
	it('is true for objects that are not lists', () => {
		expect(isJsonObject({})).toBe(true);
		expect(isJsonObject({ a: [1] })).toBe(true);
		expect(isJsonObject(Object.create(null))).toBe(true);
	});

	it.each([[[]], [[{}]], [null], [undefined], ['{}'], [0], [true]])('is false for %j', (value) => {
		expect(isJsonObject(value)).toBe(false);
	});
});

describe('jsonObjectOf', () => {
	it('parses JSON text into an object', () => {
		expect(jsonObjectOf('{"key": "value", "n": [1, {"x": null}]}')).toEqual({
			object: { key: 'value', n: [1, { x: null }] },
		});
		expect(jsonObjectOf('  {}  ')).toEqual({ object: {} });
	});

	it('takes an object from an expression as it is', () => {
		const given = { event: 'peopleCreated', nested: { a: 1 } };
		const result = jsonObjectOf(given);
		expect(result).toEqual({ object: given });
		expect('object' in result && result.object).toBe(given);
	});

	it.each([
		['[1, 2]', 'a list'],
		['[]', 'a list'],
		['null', 'null'],
		['42', 'a number'],
		['"text"', 'a string'],
		['true', 'a boolean'],
	])('refuses the JSON text %s: %s', (text, words) => {
		expect(jsonObjectOf(text)).toEqual({
			problem: `must be a JSON object like {"key": "value"}, got ${words}`,
		});
	});

	it('refuses values from an expression that are not objects', () => {
		expect(jsonObjectOf([{ a: 1 }])).toEqual({
			problem: 'must be a JSON object like {"key": "value"}, got a list',
		});
		expect(jsonObjectOf(null)).toEqual({
			problem: 'must be a JSON object like {"key": "value"}, got null',
		});
		expect(jsonObjectOf(7)).toEqual({
			problem: 'must be a JSON object like {"key": "value"}, got a number',
		});
	});

	it.each<[string, string]>([
		['', 'is not valid JSON'],
		['{', 'is not valid JSON'],
		["{'a': 1}", 'is not valid JSON'],
		['{"a": 1,}', 'is not valid JSON'],
		['not json', 'is not valid JSON'],
		['pw=hunter2', 'is not valid JSON'],
	])('says %j is not valid JSON, never with the parser’s quote of the text', (text, problem) => {
		expect(jsonObjectOf(text)).toEqual({ problem });
	});

	it('property: JSON text is accepted exactly when it is an object, and read back unchanged', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const text = JSON.stringify(value);
				const expected = JSON.parse(text) as unknown;
				const result = jsonObjectOf(text);
				const isObject =
					expected !== null && typeof expected === 'object' && !Array.isArray(expected);
				if (isObject) expect(result).toEqual({ object: expected });
				else
					expect(result).toEqual({
						problem: `must be a JSON object like {"key": "value"}, got ${describeValue(expected)}`,
					});
			}),
			PROPERTY,
		);
	});
});
