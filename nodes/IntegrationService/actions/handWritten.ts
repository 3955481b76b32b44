import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../shared/catalogue';
import type { OperationModule, ResourceModule } from './types';

/** A resource's Operation option. */
export const operationProperty = (
	resource: ResourceSpec,
	options: INodePropertyOptions[],
	preselected: string,
): INodeProperties => ({
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource.value] } },
	options,
	default: preselected,
});

/** The Operation option of a hand-written resource (the first preselected), and its properties after it. */
export function handWritten(
	resource: ResourceSpec,
	options: Array<{ name: string; value: string; description: string; action: string }>,
	operations: Record<string, OperationModule>,
): ResourceModule {
	const operation = operationProperty(resource, options, options[0].value);
	return {
		description: [operation, ...options.flatMap((option) => operations[option.value].description)],
		operations,
	};
}
