import { setOwn } from '../set-own';
import { GenAi, GenAiEvents, OpenInference } from './otlp-conventions';

/**
 * A span's prompt or answer when no single attribute holds it: the messages its events carry
 * (the GenAI conventions' older span events), or its flattened message attributes
 * (OpenInference's `llm.input_messages.0.message.role`, Traceloop's older `gen_ai.prompt.0.role`).
 * Each is read only when nothing else gave the span an input or output.
 */

type Json = unknown;
type Events = ReadonlyArray<Record<string, unknown>>;
type Column = 'input' | 'output';

const ROLE_OF_EVENT: Record<string, string> = {
  [GenAiEvents.SystemMessage]: 'system',
  [GenAiEvents.UserMessage]: 'user',
  [GenAiEvents.AssistantMessage]: 'assistant',
  [GenAiEvents.ToolMessage]: 'tool',
};
/** Event attributes that say which system sent the event, not what the message said. */
const NOT_MESSAGE_FIELDS = new Set([GenAi.System, GenAi.ProviderName, 'event.name']);

/**
 * The messages a span's events carry for its input (system, user, assistant and tool message
 * events, in order; or the prompt of a `gen_ai.content.prompt` event) or its output (the
 * `gen_ai.choice` events, in index order; or a `gen_ai.content.completion` event's completion).
 */
export function messagesFromEvents(events: Events, column: Column, parse: (value: unknown) => Json): Json | undefined {
  const whole = column === 'input' ? [GenAiEvents.ContentPrompt, GenAi.Prompt] : [GenAiEvents.ContentCompletion, GenAi.Completion];
  const messages: Array<{ at: number; message: Record<string, unknown> }> = [];
  for (const event of events) {
    const attributes = (event.attributes ?? {}) as Record<string, unknown>;
    if (event.name === whole[0] && attributes[whole[1]] !== undefined) return parse(attributes[whole[1]]);
    if (column === 'input' && typeof event.name === 'string' && ROLE_OF_EVENT[event.name]) {
      messages.push({ at: messages.length, message: eventMessage(attributes, ROLE_OF_EVENT[event.name], parse) });
    } else if (column === 'output' && event.name === GenAiEvents.Choice) {
      messages.push({ at: typeof attributes.index === 'number' ? attributes.index : messages.length, message: choiceMessage(attributes, parse) });
    }
  }
  if (!messages.length) return undefined;
  return messages.sort((a, b) => a.at - b.at).map((m) => m.message);
}

/** A message event as a message: its role (the event's, unless it names one) and its fields (a JSON string parsed). */
function eventMessage(attributes: Record<string, unknown>, role: string, parse: (value: unknown) => Json): Record<string, unknown> {
  const message: Record<string, unknown> = { role };
  for (const [key, value] of Object.entries(attributes)) if (!NOT_MESSAGE_FIELDS.has(key)) setOwn(message, key, key === 'content' ? value : parse(value));
  return message;
}

/** A choice event as the assistant's message: its `message` (an object, or one as JSON) with the choice's finish reason. */
function choiceMessage(attributes: Record<string, unknown>, parse: (value: unknown) => Json): Record<string, unknown> {
  const inner = parse(attributes.message);
  const message: Record<string, unknown> = { role: 'assistant' };
  if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) for (const [key, value] of Object.entries(inner)) setOwn(message, key, value);
  else if (inner !== undefined) message.content = inner;
  for (const [key, value] of Object.entries(attributes)) if (key !== 'message' && key !== 'index' && !NOT_MESSAGE_FIELDS.has(key)) setOwn(message, key, parse(value));
  return message;
}

const FLATTENED_PREFIXES: Record<Column, readonly string[]> = {
  input: [OpenInference.InputMessagesPrefix, `${GenAi.Prompt}.`],
  output: [OpenInference.OutputMessagesPrefix, `${GenAi.Completion}.`],
};
/** OpenInference wraps each list item in one more level (`.0.message.`, `.0.tool_call.`, `.0.message_content.`): left out. */
const ITEM_WRAPPERS = new Set(['message', 'tool_call', 'message_content']);
/** Deeper keys are not messages (OpenInference's deepest is 8 levels below the prefix). */
const MAX_SEGMENTS = 12;
const INDEX = /^\d{1,6}$/;

/**
 * The messages flattened into a span's attributes under the first prefix that has any:
 * `llm.input_messages.1.message.tool_calls.0.tool_call.function.name` becomes
 * `[…, { tool_calls: [{ function: { name } }] }]`. Lists keep their items' order, without gaps.
 */
export function flattenedMessages(attributes: Record<string, unknown>, column: Column): Json[] | undefined {
  for (const prefix of FLATTENED_PREFIXES[column]) {
    let tree: Node | undefined;
    for (const key of Object.keys(attributes)) {
      if (!key.startsWith(prefix)) continue;
      const path = key.slice(prefix.length).split('.');
      if (path.length > MAX_SEGMENTS || !INDEX.test(path[0])) continue;
      tree ??= new Map();
      place(tree, withoutWrappers(path), attributes[key]);
    }
    if (tree) return toJson(tree) as Json[];
  }
  return undefined;
}

/** Built with Maps, so no key (`__proto__` included) can reach a prototype; made plain JSON at the end. */
type Node = Map<string, Node | unknown>;

function withoutWrappers(path: string[]): string[] {
  return path.filter((segment, i) => !(i > 0 && INDEX.test(path[i - 1]) && ITEM_WRAPPERS.has(segment)));
}

function place(tree: Node, path: string[], value: unknown): void {
  let node = tree;
  for (let i = 0; i < path.length - 1; i++) {
    let next = node.get(path[i]);
    if (!(next instanceof Map)) {
      next = new Map();
      node.set(path[i], next);
    }
    node = next as Node;
  }
  node.set(path[path.length - 1], value);
}

/** A node whose keys are all indexes is a list (in index order), any other an object. */
function toJson(node: unknown): Json {
  if (!(node instanceof Map)) return node;
  const keys = [...(node as Node).keys()];
  if (keys.every((key) => INDEX.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => toJson(node.get(key)));
  }
  const object: Record<string, unknown> = {};
  for (const key of keys) setOwn(object, key, toJson(node.get(key)));
  return object;
}
