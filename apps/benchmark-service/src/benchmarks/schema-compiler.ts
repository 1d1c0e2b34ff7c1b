import { ScoringThreads, type SchemaCompiler } from '@cinetrace/scorers';
import { Injectable, OnModuleDestroy } from '@nestjs/common';

/**
 * Compiles the JSON Schemas of `json_schema` scorers at benchmark create on a scoring thread,
 * under its time limit: ajv turns a schema into code on the spot, which any write key could
 * otherwise repeat to hold the event loop. One thread, made when first needed.
 */
@Injectable()
export class SchemaThreads implements SchemaCompiler, OnModuleDestroy {
  private readonly threads = new ScoringThreads({ size: 1 });

  schemaProblem(schema: object): Promise<string | null> {
    return this.threads.schemaProblem(schema);
  }

  async onModuleDestroy(): Promise<void> {
    await this.threads.close();
  }
}
