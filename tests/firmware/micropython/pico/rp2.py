"""A stand-in for MicroPython's `rp2` with a cycle model of the PIO.

`asm_pio` assembles the decorated program as the real one does (it runs the
function with the PIO instructions in its globals) into a list of instructions;
`StateMachine` executes that list instruction by instruction: side-set drives
the SCK pin (through machine.board, which tells the chip of each rising edge),
`in_` samples the DOUT pin, one instruction plus its delay per cycle of `freq`.
Only what the seesaw's program uses is modelled."""

import machine


class PIO:
    OUT_LOW, OUT_HIGH, IN_LOW, IN_HIGH = 0, 1, 0, 1
    SHIFT_LEFT, SHIFT_RIGHT = 0, 1


class Instruction:
    def __init__(self, op, args):
        self.op, self.args, self.sideset, self.delay = op, args, None, 0

    def side(self, level):
        self.sideset = level
        return self

    def __getitem__(self, delay):
        self.delay = delay
        return self


def asm_pio(**settings):
    def assemble(program):
        code, labels = [], {}

        def emit(op):
            def instruction(*args):
                code.append(Instruction(op, args))
                return code[-1]
            return instruction

        def label(name):
            labels[name] = len(code)

        names = {"label": label}
        for op in ("pull", "push", "mov", "set", "nop", "in_", "jmp"):
            names[op] = emit(op)
        for name in ("x", "y", "osr", "isr", "pins", "x_dec", "y_dec"):
            names[name] = name
        scope = program.__globals__
        saved = dict(scope)
        scope.update(names)
        try:
            program()
        finally:
            scope.clear()
            scope.update(saved)
        if settings.get("in_shiftdir", PIO.SHIFT_LEFT) != PIO.SHIFT_LEFT:
            raise ValueError("model: only in_shiftdir=SHIFT_LEFT")
        return {"code": code, "labels": labels, "settings": settings}
    return assemble


class StateMachine:
    def __init__(self, sm_id, program, freq=125000000, sideset_base=None, in_base=None):
        self.program = program
        self.us_per_cycle = 1000000 / freq
        self.sck = sideset_base.gpio
        self.dout = in_base.gpio
        machine.board.drive(self.sck, program["settings"].get("sideset_init", 0))
        self.pc = 0
        self.regs = {"x": 0, "y": 0, "osr": 0}
        self.isr = 0
        self.tx, self.rx = [], []
        self.on = False
        self.cycles = 0
        self.high_at = 0
        self.longest_high_us = 0

    def active(self, on):
        self.on = bool(on)

    def put(self, word):
        self.tx.append(word & 0xFFFFFFFF)
        if self.on:
            machine.board.pio_run(self._run)

    def rx_fifo(self):
        return len(self.rx)

    def get(self):
        return self.rx.pop(0)

    def _side(self, level):
        board = machine.board
        if level == board.levels.get(self.sck, 0):
            return
        if level:
            self.high_at = self.cycles
            board.drive(self.sck, 1)
        else:
            high_us = (self.cycles - self.high_at) * self.us_per_cycle
            self.longest_high_us = max(self.longest_high_us, high_us)
            board.drive(self.sck, 0, high_us)

    def _run(self):
        code, labels = self.program["code"], self.program["labels"]
        for _ in range(10000):  # a read is ~110 instructions: more is a runaway program
            ins = code[self.pc]
            if ins.op == "pull" and not self.tx:
                return  # blocks until the next put
            if ins.sideset is not None:
                self._side(ins.sideset)
            self.pc = (self.pc + 1) % len(code)
            op, args = ins.op, ins.args
            if op == "pull":
                self.regs["osr"] = self.tx.pop(0)
            elif op == "mov":
                self.regs[args[0]] = self.regs[args[1]]
            elif op == "set":
                self.regs[args[0]] = args[1]
            elif op == "in_":
                for _ in range(args[1]):
                    self.isr = ((self.isr << 1) | machine.board.level(self.dout)) & 0xFFFFFFFF
            elif op == "jmp":
                reg = args[0][0]
                if self.regs[reg] != 0:
                    self.pc = labels[args[1]]
                self.regs[reg] = (self.regs[reg] - 1) & 0xFFFFFFFF
            elif op == "push":
                self.rx.append(self.isr)
                self.isr = 0
            self.cycles += 1 + ins.delay
        raise RuntimeError("PIO program did not come back to pull")
