import { updateDisplayOptions } from 'n8n-workflow';

import type { MembersSpec, ResourceSpec } from '../../../shared/catalogue';
import { fieldProperties } from '../../helpers/form';
import { FIELDS } from '../../helpers/kinds';
import { locatorValue } from '../../helpers/kinds/locator';
import { readId, sendToEntity } from '../request';
import type { OperationModule } from '../modules';
import { versioned } from '../settings';
import { idLocator, idOf, idProperty, shownFor } from './texts';

/** A list's people, a person's tags: one item `{ id, <output>: names }` whatever the service answers. */
export function membersOperation(
	resource: ResourceSpec,
	operation: string,
	members: MembersSpec,
): OperationModule {
	const id = idOf(resource);
	const { field } = members;
	return {
		description: updateDisplayOptions(
			shownFor(resource, operation),
			versioned(
				[idProperty(resource, members.verb), FIELDS.property(field)],
				[idLocator(resource, members.verb), ...fieldProperties([field], true)],
			),
		),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, id);
			const raw = locatorValue(this.getNodeParameter(field.name, itemIndex, undefined));
			const names = FIELDS.read({ ctx: this, itemIndex, label: field.label }, field, raw);
			await sendToEntity(this, itemIndex, run, resource, {
				method: members.method,
				path: [segment, ...members.path],
				body: { [field.name]: names as string[] },
			});
			return [{ id: segment.value, [members.output]: names as string[] }];
		},
	};
}
