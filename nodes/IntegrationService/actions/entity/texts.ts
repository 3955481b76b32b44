import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { searchable } from '../../../shared/catalogue';
import { locatorProperty } from '../../helpers/kinds/locator';
import type { EntityOperation } from '../modules';
import type { ServiceHost } from '../../../shared/service';

/** The words and properties every entity operation builds from its catalogue entry. */

const SYSTEM: Record<ServiceHost, string> = {
	crm: 'connected CRM',
	los: 'connected loan origination system',
	calendar: 'connected calendar',
	universal: 'Integration Service',
};

export const systemOf = (resource: ResourceSpec) =>
	resource.host === 'chosen' ? 'service' : SYSTEM[resource.host];

export function nounsOf(resource: ResourceSpec): { one: string; many: string } {
	const one = resource.label.toLowerCase();
	return resource.noun ?? { one, many: `${one}s` };
}

/** "a note", "an appointment", "a user" (no noun here starts with a vowel-sounding u). */
export function anOne(resource: ResourceSpec): string {
	const { one } = nounsOf(resource);
	return `${/^[aeio]/.test(one) ? 'an' : 'a'} ${one}`;
}

/** Option texts in one style: "Create a note", "in the connected CRM", then only the unexpected. */
export const entityOperation = (
	module: EntityOperation['module'],
	name: string,
	[place, after]: [string, string?],
	action = (resource: ResourceSpec) => `${name} ${anOne(resource)}`,
): EntityOperation => ({
	module,
	option: (r) => ({
		name,
		description: `${action(r)} ${place} the ${systemOf(r)}${after ?? ''}`,
		action: action(r),
	}),
});

export const shownFor = (resource: ResourceSpec, operation: string): IDisplayOptions => ({
	show: { resource: [resource.value], operation: [operation] },
});

export function idOf(resource: ResourceSpec): NonNullable<ResourceSpec['id']> {
	if (!resource.id) throw new ApplicationError(`The catalogue gives ${resource.value} no ID`);
	return resource.id;
}

/** The record's ID: version 1's text box; version 2's picked from the list where the service lists them. */
export function idProperties(resource: ResourceSpec, verb: string): INodeProperties[] {
	const { one } = nounsOf(resource);
	const id = idOf(resource);
	const typed: INodeProperties = {
		displayName: id.label,
		name: id.name,
		type: 'string',
		required: true,
		default: '',
		placeholder: id.placeholder,
		description: `ID of the ${one} to ${verb}, as the Integration Service returns it in the ${one}'s "ID" field`,
	};
	if (!searchable(resource)) return [typed, typed];
	const description = `The ${one} to ${verb}: pick it from the list, or give its ID`;
	const picked = { displayName: id.label, name: id.name, required: true, description };
	return [typed, locatorProperty(picked, resource)];
}
