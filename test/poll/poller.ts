/**
 * Runs the Integration Service Changes Trigger the way n8n 2.41 runs a polling trigger: n8n-core's
 * real PollContext on one Workflow that lives while the workflow is active, the poll called through
 * n8n-core's TriggersAndPollers. As n8n (TriggerExecutionContextFactory.getExecutePollFunctions): a
 * poll that returns items starts an execution and saves the static data if it changed; a poll that
 * returns null saves nothing (its changes stay in memory); a poll that throws records a failed
 * execution and saves nothing; activation saves the static data after its first poll. `restart`
 * loads the workflow again from what was saved, as n8n does after a restart.
 */
import '../harness/setup-env';

import { PollContext, TriggersAndPollers } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	additionalDataFor,
	CREDENTIAL_TYPE,
	loadPackage,
	NODE_TYPE,
	TestCredentialsHelper,
} from '../harness/engine';

export const CHANGES_TRIGGER_TYPE = `${NODE_TYPE}ChangesTrigger`;

export interface PollOutcome {
	/** The items of the execution the poll started; undefined when it started none. */
	items?: IDataObject[];
	/** The poll's error (n8n records a failed execution). */
	error?: Error & { httpCode?: string; description?: string | null };
}

export interface Poller {
	/** Activation: the first poll, then n8n saves the static data. */
	activate(): Promise<PollOutcome>;
	/** One scheduled poll. */
	poll(): Promise<PollOutcome>;
	/** A manual test run ("Fetch Test Event"): what it returns, the static data untouched. */
	manual(): Promise<INodeExecutionData[][] | null | undefined>;
	/** An n8n restart: the workflow again from the saved static data. */
	restart(): void;
	/** The static data as saved. */
	readonly saved: IDataObject;
	/** The trigger's state as saved (its node's static data). */
	readonly state: IDataObject | undefined;
	/** Executions started, each by its items. */
	readonly executions: IDataObject[][];
}

let pollers = 0;

export async function startPoller(
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject,
): Promise<Poller> {
	const { nodeTypes, credentialTypes } = await loadPackage();
	const credentialId = `poll-cred-${++pollers}`;
	const additionalData = additionalDataFor(
		new TestCredentialsHelper(credentialTypes, { [credentialId]: credentials }),
	);
	const node: INode = {
		id: 'changes',
		name: 'Integration Service Changes Trigger',
		type: CHANGES_TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Integration Service account' } },
	};
	let saved: IDataObject = {};
	const executions: IDataObject[][] = [];
	const load = () =>
		new Workflow({
			id: `poll-workflow-${pollers}`,
			name: 'poll test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(JSON.stringify(saved)) as IDataObject,
			settings: { executionOrder: 'v1' },
		});
	let workflow = load();
	const save = () => {
		if (workflow.staticData.__dataChanged !== true) return;
		saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		workflow.staticData.__dataChanged = false;
	};
	const run = async (
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
	): Promise<PollOutcome> => {
		const context = new PollContext(workflow, node, additionalData, mode, activation);
		try {
			const result = await new TriggersAndPollers().runPollFunction(workflow, node, context);
			if (result === null) return {};
			save();
			const items = result[0].map((item) => item.json);
			executions.push(items);
			return { items };
		} catch (error) {
			return { error: error as PollOutcome['error'] };
		}
	};
	return {
		async activate() {
			const outcome = await run('trigger', 'activate');
			if (!outcome.error) save();
			return outcome;
		},
		poll: async () => await run('trigger', 'update'),
		async manual() {
			const context = new PollContext(workflow, node, additionalData, 'manual', 'manual');
			const type = nodeTypes.getByNameAndVersion(CHANGES_TRIGGER_TYPE, 1);
			return await type.poll!.call(context);
		},
		restart() {
			workflow = load();
		},
		get saved() {
			return saved;
		},
		get state() {
			return (saved[`node:${node.name}`] as IDataObject | undefined)?.changes as
				| IDataObject
				| undefined;
		},
		executions,
	};
}
