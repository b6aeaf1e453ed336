; Everything that writes the PPU: the VRAM buffer, 16x16 cells with their own palette,
; and the per-frame playfield renderer.
;
; Cells are 2x2 tiles aligned on the attribute grid, so each cell owns one attribute
; quadrant and every jewel colour gets its own palette. The renderer compares what the
; playfield holds with what the screen shows and redraws at most a few cells a frame, which
; keeps the NMI's copy well inside vblank.

.include "defs.inc"

CELLS_PER_FRAME = 8
CELLS_WITH_HUD  = 5

.segment "CODE"

; Copies the VRAM buffer to the PPU (from the NMI, or with rendering off).
flush_buffer:
    ldx #0
@entry:
    lda vram_buf, x
    beq @done
    inx
    tay
    bpl @across
    lda ppu_ctrl
    ora #%00000100          ; VRAM address +32 per byte
    sta PPUCTRL
    tya
    and #$7F
    tay
    bne @address
@across:
    lda ppu_ctrl
    sta PPUCTRL
@address:
    lda vram_buf, x
    sta PPUADDR
    inx
    lda vram_buf, x
    sta PPUADDR
    inx
@data:
    lda vram_buf, x
    sta PPUDATA
    inx
    dey
    bne @data
    beq @entry
@done:
    lda ppu_ctrl
    sta PPUCTRL
    rts

; With rendering off: sends what the buffer holds now.
flush_now:
    ldx buf_len
    lda #0
    sta vram_buf, x
    jsr flush_buffer
    lda #0
    sta buf_len
    rts

; With rendering off: sends a list in ROM at (ptr), in the buffer's format.
flush_list:
    ldy #0
@entry:
    lda (ptr), y
    beq @done
    iny
    tax
    bpl @across
    lda ppu_ctrl
    ora #%00000100
    sta PPUCTRL
    txa
    and #$7F
    tax
    bne @address
@across:
    lda ppu_ctrl
    sta PPUCTRL
@address:
    lda (ptr), y
    sta PPUADDR
    iny
    lda (ptr), y
    sta PPUADDR
    iny
@data:
    lda (ptr), y
    sta PPUDATA
    iny
    bne :+
    inc ptr + 1             ; lists may be longer than a page
:   dex
    bne @data
    beq @entry
@done:
    lda ppu_ctrl
    sta PPUCTRL
    rts

; With rendering off: blank name table, every attribute on palette 3, palettes loaded.
clear_screen:
    lda #$3F
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #0
:   lda palettes, x
    sta PPUDATA
    inx
    cpx #32
    bne :-
    lda #$20
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #0
    ldy #4
    lda #$20                ; the blank tile
:   sta PPUDATA
    inx
    bne :-
    dey
    bne :-
    ; That wrote the attribute table too; now set it to palette 3.
    lda #$23
    sta PPUADDR
    lda #$C0
    sta PPUADDR
    ldx #0
    lda #$FF
:   sta PPUDATA
    sta attr_shadow, x
    inx
    cpx #64
    bne :-
    lda #0
    sta buf_len
    rts

; Starts a buffer entry of A bytes (bit 7: vertical) at vaddr; X = where its data goes.
vb_start:
    ldx buf_len
    sta vram_buf, x
    inx
    lda vaddr + 1
    sta vram_buf, x
    inx
    lda vaddr
    sta vram_buf, x
    inx
    rts

; Queues a 16x16 cell: tiles cell_tile .. +3 at (cell_tx, cell_ty), palette cell_pal.
draw_cell:
    lda cell_ty
    lsr a
    lsr a
    lsr a
    ora #$20
    sta vaddr + 1
    lda cell_ty
    asl a
    asl a
    asl a
    asl a
    asl a
    ora cell_tx
    sta vaddr
    lda #2
    jsr vb_start
    lda cell_tile
    sta vram_buf, x
    inx
    clc
    adc #1
    sta vram_buf, x
    inx
    stx buf_len
    NEXT_VRAM_ROW
    lda #2
    jsr vb_start
    lda cell_tile
    clc
    adc #2
    sta vram_buf, x
    inx
    adc #1
    sta vram_buf, x
    inx
    stx buf_len
    ; Attribute byte (ty / 4) * 8 + tx / 4, quadrant from bit 1 of tx and ty.
    lda cell_ty
    and #%11111100
    asl a
    sta tmp0
    lda cell_tx
    lsr a
    lsr a
    ora tmp0
    sta tmp0                ; attribute index
    CELL_QUADRANT_TO_Y      ; quadrant 0-3
    lda cell_pal
:   dey
    bmi :+
    asl a
    asl a
    jmp :-
:   sta tmp2                ; palette in place
    CELL_QUADRANT_TO_Y
    ldx tmp0
    lda attr_shadow, x
    and quadrant_clear, y
    ora tmp2
    sta attr_shadow, x
    sta tmp2
    lda #$23
    sta vaddr + 1
    lda tmp0
    ora #$C0
    sta vaddr
    lda #1
    jsr vb_start
    lda tmp2
    sta vram_buf, x
    inx
    stx buf_len
    rts

quadrant_clear:
    .byte %11111100, %11110011, %11001111, %00111111

; Queues cell value A (0 empty, 1-6, 7 wild) at (cell_tx, cell_ty).
draw_value:
    and #7
    tay
    lda cell_palette, y
    sta cell_pal
    tya
    asl a
    asl a
    clc
    adc #CELL_TILES
    sta cell_tile
    jmp draw_cell

; Queues an entry from a ROM text at (ptr): len, high, low, bytes.
write_text_entry:
    ldy #0
    lda (ptr), y
    sta tmp0
    ldx buf_len
    clc
    adc #3
    sta tmp1
:   lda (ptr), y
    sta vram_buf, x
    inx
    iny
    cpy tmp1
    bne :-
    stx buf_len
    rts

; Every frame while rendering: the counters when they changed, then the cells whose shown
; value differs from the playfield RAM, then the next box, at most a few cells a frame.
render_play:
    lda #CELLS_PER_FRAME
    sta budget
    lda hud_dirty
    beq @cells
    lda #0
    sta hud_dirty
    lda #CELLS_WITH_HUD
    sta budget
    jsr write_hud
@cells:
    ldy #FIRST_VISIBLE
@cell:
    LOAD_CELL_OR_SKIP @next
    cmp shown, y
    beq @next
    sta shown, y
    sty save_y
    pha
    tya
    and #7
    asl a
    clc
    adc #PF_TX - 2
    sta cell_tx
    tya
    lsr a
    lsr a
    and #%11111110
    clc
    adc #(PF_TY - 4) & $FF
    sta cell_ty
    pla
    jsr draw_value
    ldy save_y
    dec budget
    beq @done
@next:
    iny
    cpy #PF_SIZE
    bne @cell
    ; The next box.
    ldy #0
@box:
    lda next_col, y
    cmp shown_next, y
    beq @box_next
    sta shown_next, y
    sty save_y
    pha
    lda #NEXT_TX
    sta cell_tx
    tya
    asl a
    clc
    adc #NEXT_TY
    sta cell_ty
    pla
    jsr draw_value
    ldy save_y
    dec budget
    beq @done
@box_next:
    iny
    cpy #3
    bne @box
@done:
    rts

; Score (7 of 8 digits), level (3 of 8), jewels (5 of 8), highest digit first.
write_hud:
    lda #7
    sta tmp3
    ldx #<HUD_SCORE
    ldy #score + 6
    lda #>HUD_SCORE
    jsr write_digits
    lda #3
    sta tmp3
    ldx #<HUD_LEVEL
    ldy #level + 2
    lda #>HUD_LEVEL
    jsr write_digits
    lda #5
    sta tmp3
    ldx #<HUD_JEWELS
    ldy #jewels + 4
    lda #>HUD_JEWELS
    jmp write_digits

; The high score, 7 of its 8 digits.
write_top:
    lda #<HUD_TOP
    sta vaddr
    lda #>HUD_TOP
    sta vaddr + 1
    lda #7
    jsr vb_start
    ldy #6
:   lda high_score, y
    clc
    adc #$30
    sta vram_buf, x
    inx
    dey
    bpl :-
    stx buf_len
    rts

; tmp3 digits from zero page address Y downwards, to VRAM address A (high), X (low).
write_digits:
    sta vaddr + 1
    stx vaddr
    sty tmp2
    lda tmp3
    jsr vb_start
    ldy tmp2
:   lda $00, y
    cmp #10
    bcc :+
    lda #($2D - $30) & $FF          ; a corrupt digit shows as '-'
:   clc
    adc #$30
    sta vram_buf, x
    inx
    dey
    dec tmp3
    bne :--
    stx buf_len
    rts

.segment "RODATA"

; Background palettes: two jewel colours each, white highlights everywhere (index 3),
; so text drawn in colour 3 is white on any palette.
palettes:
    .byte $0F, $16, $14, $30    ; 0: red, purple
    .byte $0F, $38, $27, $30    ; 1: yellow, orange (and the wild X, the title)
    .byte $0F, $21, $2A, $30    ; 2: blue, green
    .byte $0F, $10, $00, $30    ; 3: greys: frame, empty cells, text
    .byte $0F, $16, $14, $30
    .byte $0F, $38, $27, $30
    .byte $0F, $21, $2A, $30
    .byte $0F, $10, $00, $30

; Palette of each cell value.
cell_palette:
    .byte 3, 0, 0, 1, 1, 2, 2, 1
