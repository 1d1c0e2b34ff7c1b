import { Logger } from '@nestjs/common';
import { logCreator, logLevel } from 'kafkajs';

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
    else if (level === logLevel.ERROR) logger.error(line);
    else if (level === logLevel.WARN) logger.warn(line);
    else logger.debug(line);
  };
};
