/**
 * The rule every JSON text parameter of the package shares (the trigger's Filters, the action node's
 * JSON fields): a value is sent as the text says or refused. JSON.parse keeps the last of a key given
 * twice and rounds a number to the nearest double silently; jsonTextProblem reads the text for both.
 */
import { jsonTextProblem, lossyNumberAt } from '../../nodes/shared/jsonNumbers';
import { jsonOf } from '../../nodes/shared/service';

const CHANGED = 'a number that a number cannot keep exactly (too many digits, or too small)';

describe('jsonTextProblem', () => {
	test.each([
		'{"a":1.0,"b":1e2,"c":0.1,"d":-0,"e":0e99,"f":-2.50E-3,"g":0.30000000000000004}',
		'[9007199254740991, -9007199254740991, 5e-324, 1.7976931348623157e-300, 123.456e-2]',
		'{"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}]}',
		'{"a":"}{,:\\"[","b":"\\\\","\\"":1,"c":"1e400"}',
		'{"":1, " ":2, "a":true, "b":null, "c":false}',
		'"text"',
		'12',
	])('keeps %s', (text) => {
		expect(jsonTextProblem(text)).toBeUndefined();
	});

	test.each([
		['{"stage":"Lead","stage":"Closed"}', 'the field "stage" is given twice'],
		['{"stage":"Lead","st\\u0061ge":"Closed"}', 'the field "stage" is given twice'],
		['{"a":{"b":[{"c":1,"c":1}]}}', 'the field "a.b[0].c" is given twice'],
		['{"a":1e400}', 'holds at a a number beyond ±9007199254740991'],
		['{"a":-1e400}', 'holds at a a number beyond ±9007199254740991'],
		['{"a":1.00000000000000001}', `holds at a ${CHANGED}`],
		['{"a":[0, 0.1000000000000000055511151231257827]}', `holds at a[1] ${CHANGED}`],
		['{"a":{"b":1e-400}}', `holds at a.b ${CHANGED}`],
		['3.14159265358979323846', `is ${CHANGED}`],
	])('refuses %s, naming the place', (text, problem) => {
		expect(jsonTextProblem(text)).toMatch(
			new RegExp(`^${problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
		);
		expect(jsonOf(text)).toEqual({ problem: jsonTextProblem(text) });
	});

	test('a finite number beyond ±(2^53 − 1) is left to the check of the value, which names the field', () => {
		expect(jsonTextProblem('{"a":[9007199254740993]}')).toBeUndefined();
		expect(lossyNumberAt(JSON.parse('{"a":[9007199254740993]}'))).toBe('a[0]');
	});

	test('a long text with escaped quotes and a deep nesting is read in one pass', () => {
		const long = `{"a":"${'x\\"'.repeat(500_000)}","a":1}`;
		expect(jsonTextProblem(long)).toBe('the field "a" is given twice; give each field once');
		const deep = `${'['.repeat(5000)}1.00000000000000001${']'.repeat(5000)}`;
		expect(jsonTextProblem(deep)).toMatch(/^holds at (\[0\]){5000} a number/);
	});
});

describe('lossyNumberAt on a value from an expression', () => {
	test('±Infinity inside an object is refused (it would be sent as null); alone it is left to its field', () => {
		expect(lossyNumberAt({ a: [1, Infinity] })).toBe('a[1]');
		expect(lossyNumberAt({ a: -Infinity })).toBe('a');
		expect(lossyNumberAt(Infinity)).toBeUndefined();
	});
});
