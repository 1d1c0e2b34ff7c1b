import { Logger } from '@nestjs/common';
import { logCreator, logLevel } from 'kafkajs';

// kafkajs' table of the broker's error codes (not in its typings): which ones it retries.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { errorCodes } = require('kafkajs/src/protocol/error') as { errorCodes: Array<{ message: string; retriable: boolean }> };
const RETRIED = new Set(errorCodes.filter((code) => code.retriable).map((code) => code.message));

/**
 * kafkajs log entries as one line each: namespace, message and error text only. Its
 * default entries carry stack traces, which stay out of our logs.
 */
export const kafkaLogCreator: logCreator = () => {
  const logger = new Logger('Kafka');
  return ({ namespace, level, log }) => {
    const { message, error } = log as { message: string; error?: string };
    const line = `${namespace}: ${message}${error && error !== message ? ` (${error})` : ''}`;
    // Every app asks to create topics that another app (or replica) created first; the
    // broker's answer is an error response kafkajs logs as an error. ensureTopics reports
    // a real failure itself, so this one is only worth a debug line.
    if (message?.startsWith('Response CreateTopics')) logger.debug(line);
    // An error answer kafkajs retries itself (no leader yet, coordinator loading: every start
    // on a new broker shows a dozen): a warning. If the retries run out, the caller reports it.
    else if (level === logLevel.ERROR && error !== undefined && RETRIED.has(error)) logger.warn(line);
    else if (level === logLevel.ERROR) logger.error(line);
    else if (level === logLevel.WARN) logger.warn(line);
    else logger.debug(line);
  };
};
