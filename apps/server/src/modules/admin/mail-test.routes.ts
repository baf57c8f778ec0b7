import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireInstanceAdmin } from "../../http/auth.ts";
import type { MailQueue } from "../../platform/mail/mail-queue.ts";

const testMailBody = z.object({ to: z.email() });

/** Lets an administrator prove the mail path end to end: request, job, then SMTP or the dev outbox. */
export function registerMailTestRoute(app: FastifyInstance, deps: { mail: MailQueue }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/admin/mail-test/",
    {
      schema: {
        tags: ["admin"],
        summary: "Queue a test message (instance administrators only)",
        body: testMailBody,
        response: { 202: z.object({ task_id: z.string(), delivery: z.enum(["smtp", "outbox"]) }) },
      },
    },
    async (request, reply) => {
      requireInstanceAdmin(request);
      const taskId = await deps.mail.queue({
        to: request.body.to,
        subject: "Tarmac test message",
        title: "Test message",
        blocks: ["This message confirms that Tarmac can deliver mail from this instance."],
      });
      return reply.status(202).send({ task_id: taskId ?? "", delivery: deps.mail.mode });
    },
  );
}
