/**
 * The run's expression-free parameters are read once (actions/runParameters.ts): what n8n would give
 * each item, with fewer calls, and never one item's value in another's hands.
 */
import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { IntegrationService } from '../../nodes/IntegrationService/IntegrationService.node';
import { ITEM_READ, withRunParameters } from '../../nodes/IntegrationService/actions/runParameters';
import { NODE } from './fakes';

/** A context whose getNodeParameter resolves `=` values per item (as `$json.n`) and counts its calls. */
function context(parameters: INodeParameters) {
	const calls: string[] = [];
	const asked: unknown[] = [];
	const resolve = (value: unknown, itemIndex: number): unknown => {
		if (typeof value === 'string' && value.startsWith('=')) return `${value.slice(1)}#${itemIndex}`;
		if (Array.isArray(value)) return value.map((one) => resolve(one, itemIndex));
		if (value !== null && typeof value === 'object')
			return Object.fromEntries(
				Object.entries(value).map(([key, one]) => [key, resolve(one, itemIndex)]),
			);
		return value;
	};
	const ctx = {
		getNode: () => ({ ...NODE, parameters: structuredClone(parameters) }),
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown, options?: unknown) => {
			calls.push(`${name}@${itemIndex}`);
			asked.push(options);
			return name in parameters ? resolve(parameters[name], itemIndex) : fallback;
		},
		continueOnFail: () => false,
	} as unknown as IExecuteFunctions;
	return { ctx, calls, asked };
}

const PARAMETERS: INodeParameters = {
	mappingMode: 'defineBelow',
	additionalFields: { companyName: 'Acme', tags: ['a', 'b'] },
	firstName: '=first',
	output: { fields: 'id', deep: { name: '=late' } },
};

describe('withRunParameters', () => {
	test('gives every item what n8n gives it, and reads an expression-free parameter once', () => {
		const { ctx, calls } = context(PARAMETERS);
		const plain = context(PARAMETERS).ctx;
		const run = withRunParameters(ctx);
		for (const item of [0, 1, 2]) {
			for (const name of ['mappingMode', 'additionalFields', 'firstName', 'output', 'missing']) {
				expect(run.getNodeParameter(name, item, 'fallback')).toEqual(
					plain.getNodeParameter(name, item, 'fallback'),
				);
			}
		}
		const count = (name: string) => calls.filter((call) => call.startsWith(`${name}@`)).length;
		expect(count('mappingMode')).toBe(1);
		expect(count('additionalFields')).toBe(1);
		// An expression anywhere in the value, or a name the node does not hold: n8n every time.
		expect(count('firstName')).toBe(3);
		expect(count('output')).toBe(3);
		expect(count('missing')).toBe(3);
	});

	test("one item's changes to its value never reach the next item", () => {
		const run = withRunParameters(context(PARAMETERS).ctx);
		const first = run.getNodeParameter('additionalFields', 0) as { tags: string[] };
		first.tags.push('changed');
		expect(run.getNodeParameter('additionalFields', 1)).toEqual({
			companyName: 'Acme',
			tags: ['a', 'b'],
		});
	});

	test('a read with options (extractValue, a nested path) goes to n8n', () => {
		const { ctx, calls } = context(PARAMETERS);
		const run = withRunParameters(ctx);
		run.getNodeParameter('mappingMode', 0, undefined, { extractValue: true });
		run.getNodeParameter('mappingMode', 1, undefined, { extractValue: true });
		expect(calls).toEqual(['mappingMode@0', 'mappingMode@1']);
	});

	test("an item's read skips n8n's schema check, which has nothing to check in this node", () => {
		const { ctx, asked } = context(PARAMETERS);
		withRunParameters(ctx).getNodeParameter('firstName', 0);
		expect(asked).toEqual([ITEM_READ]);
		// What n8n's check (validateValueAgainstSchema) acts on: a validateType it is asked to check at
		// run time, or a resource mapper. Neither may appear anywhere in the node's properties.
		const checked: string[] = [];
		const walk = (properties: unknown[], path: string) => {
			for (const property of properties as Array<Record<string, unknown>>) {
				const here = `${path}${String(property.name)}`;
				if (property.validateType && !property.ignoreValidationDuringExecution) checked.push(here);
				if (property.type === 'resourceMapper') checked.push(here);
				for (const key of ['options', 'values'])
					if (Array.isArray(property[key])) walk(property[key] as unknown[], `${here}.`);
			}
		};
		walk(new IntegrationService().description.properties, '');
		expect(checked).toEqual([]);
	});

	test('everything else of the context is the context', () => {
		const { ctx } = context(PARAMETERS);
		const run = withRunParameters(ctx);
		expect(run.continueOnFail()).toBe(false);
		expect(run.getNode().name).toBe(NODE.name);
	});
});
