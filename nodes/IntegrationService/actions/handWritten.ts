import type { INodeProperties } from 'n8n-workflow';

import type { ResourceSpec } from '../../shared/catalogue';
import type { OperationModule, ResourceModule } from './types';

/** The Operation option of a hand-written resource, and its properties after it. */
export function handWritten(
	resource: ResourceSpec,
	options: Array<{ name: string; value: string; description: string; action: string }>,
	operations: Record<string, OperationModule>,
): ResourceModule {
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options,
		default: '',
	};
	// The first operation is preselected.
	operation.default = options[0].value;
	return {
		description: [operation, ...options.flatMap((option) => operations[option.value].description)],
		operations,
	};
}
