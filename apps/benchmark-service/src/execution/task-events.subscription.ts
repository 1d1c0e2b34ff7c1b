import { InProcessStreams, KafkaConnection, KafkaStreamConsumer } from '@cinetrace/bus';
import { TaskEvent, TaskTopics } from '@cinetrace/contracts';
import { isTransientStoreError } from '@cinetrace/persistence';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { TaskEventsHandler } from '../runs/task-events.handler';

/** Where benchmark-service reads task events from: the Kafka topic, or the all-in-one process's streams. */
export type TaskEventsSource =
  | { kind: 'kafka'; connection: KafkaConnection; clientId: string; partitions: number }
  | { kind: 'in-process'; streams: InProcessStreams };
export const TASK_EVENTS_SOURCE = Symbol('TASK_EVENTS_SOURCE');

/** Consumes task events from application start to shutdown. */
@Injectable()
export class TaskEventsSubscription implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer?: KafkaStreamConsumer<TaskEvent>;

  constructor(
    @Inject(TASK_EVENTS_SOURCE) private readonly source: TaskEventsSource,
    private readonly handler: TaskEventsHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.source.kind === 'in-process') {
      this.source.streams.subscribe(TaskTopics.TaskEvents, this.handler.handle);
      return;
    }
    this.consumer = new KafkaStreamConsumer(
      this.source.clientId,
      this.source.connection,
      {
        groupId: 'benchmark-service',
        topic: TaskTopics.TaskEvents,
        deadLetterTopic: TaskTopics.TaskEventsDeadLetter,
        partitions: this.source.partitions,
        partitionsConsumedConcurrently: this.source.partitions,
        isTransient: isTransientStoreError,
      },
      this.handler.handle,
    );
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.source.kind === 'in-process') this.source.streams.unsubscribe(TaskTopics.TaskEvents);
    await this.consumer?.stop();
  }
}
