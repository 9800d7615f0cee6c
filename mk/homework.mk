# Homework for a class (docs/homework.md): each student's problem sheet and its answer key,
# every answer from the kernel's own run of the problem's workload.
#   make homework CHAPTER=sjf ROSTER=class.txt [COUNT=3] [LEVEL=medium] [HOMEWORK_OUT=homework-sheets]
#   make homework CHAPTER=rr SEED=42          (one sheet, seeded by a number)
#   make homework-bank CHAPTER=sjf FORMAT=moodle|qti [COUNT=3] [SEED=1]   (a question bank)

CHAPTER ?= fifo-rr
COUNT ?= 3
HOMEWORK_OUT ?= homework-sheets

.PHONY: homework homework-bank
FORMAT ?= moodle

homework: build
	$(RUNQUEUE) homework --chapter $(CHAPTER) --count $(COUNT) $(if $(LEVEL),--level $(LEVEL)) \
	  $(if $(ROSTER),--roster $(ROSTER),--seed $(or $(SEED),1)) --out $(HOMEWORK_OUT)

homework-bank: build
	@mkdir -p $(HOMEWORK_OUT)
	$(RUNQUEUE) homework --chapter $(CHAPTER) --count $(COUNT) $(if $(LEVEL),--level $(LEVEL)) \
	  --seed $(or $(SEED),1) --bank $(FORMAT) > $(HOMEWORK_OUT)/$(CHAPTER).$(FORMAT).xml
	@echo "homework-bank: $(HOMEWORK_OUT)/$(CHAPTER).$(FORMAT).xml"
