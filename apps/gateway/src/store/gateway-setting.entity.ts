import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Values every gateway replica must share, made once (the cursor-signing secret). */
@Entity('gateway_settings')
export class GatewaySetting {
  @PrimaryColumn({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'text' }) value: string;
}
