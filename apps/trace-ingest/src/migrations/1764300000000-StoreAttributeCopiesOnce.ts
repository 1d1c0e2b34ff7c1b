import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `attribute_copies`: which of a span's attributes repeat its input or output and are stored
 * once, as a placeholder (see store/attribute-copies.ts). NULL for every span stored before.
 */
export class StoreAttributeCopiesOnce1764300000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE spans ADD COLUMN attribute_copies text NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE spans DROP COLUMN attribute_copies');
  }
}
